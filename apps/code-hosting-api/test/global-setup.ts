import { prepareDatabaseTemplate } from '@repo/testing';
import { applyMigrations } from '../src/db/migrate';

export default () => prepareDatabaseTemplate({ name: 'code_hosting_api', migrate: applyMigrations });
