import { prepareDatabaseTemplate } from '@repo/testing';
import { applyMigrations } from '../src/db/migrate';

export default () => prepareDatabaseTemplate({ name: 'project_service', migrate: applyMigrations });
