import { prepareDatabaseTemplate } from '@repo/testing';
import { migrationRunner } from '../src/db/migration-runner';

export default () =>
  prepareDatabaseTemplate({ name: 'code_hosting_api', migrate: migrationRunner.applyMigrations });
