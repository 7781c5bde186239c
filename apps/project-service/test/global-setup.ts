import {
  announceSkippedEventTests,
  announceSkippedReplicaTests,
  prepareDatabaseTemplate,
} from '@repo/testing';
import { migrationRunner } from '../src/db/migration-runner';

export default () => {
  announceSkippedEventTests();
  announceSkippedReplicaTests();
  if (process.env.NATS_URL && !process.env.DATABASE_URL) {
    process.stderr.write(
      'event replicas test (test/events/replicas.test.ts) not run: two service processes need one PostgreSQL database (DATABASE_URL is unset; PGlite serves one process)\n',
    );
  }
  return prepareDatabaseTemplate({ name: 'project_service', migrate: migrationRunner.applyMigrations });
};
