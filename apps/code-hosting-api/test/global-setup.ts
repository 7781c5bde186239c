import {
  announceSkippedEventTests,
  announceSkippedReplicaTests,
  prepareDatabaseTemplate,
} from '@repo/testing';
import { migrationRunner } from '../src/db/migration-runner';

export default () => {
  announceSkippedEventTests();
  announceSkippedReplicaTests();
  return prepareDatabaseTemplate({ name: 'code_hosting_api', migrate: migrationRunner.applyMigrations });
};
