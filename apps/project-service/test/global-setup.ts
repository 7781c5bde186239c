import { announceSkippedEventTests, prepareDatabaseTemplate } from '@repo/testing';
import { migrationRunner } from '../src/db/migration-runner';

export default () => {
  announceSkippedEventTests();
  return prepareDatabaseTemplate({ name: 'project_service', migrate: migrationRunner.applyMigrations });
};
