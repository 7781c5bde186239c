import { prepareDatabaseTemplate } from '@repo/testing';
import { migrationRunner } from '../src/db/migration-runner';

export default () =>
  prepareDatabaseTemplate({ name: 'project_service', migrate: migrationRunner.applyMigrations });
