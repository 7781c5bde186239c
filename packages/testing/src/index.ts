export {
  prepareDatabaseTemplate,
  dropDatabaseTemplate,
  type MigrateFunction,
  type TestDatabaseSource,
} from './database-template';
export { createTestDatabase, type TestDatabase } from './test-database';
export { useTestApp, type TestApp, type TestAppFactory, type TestAppInstance } from './test-app';
export { signTestToken, generateRsaKeyPair, type TestSigningKey } from './jwt';
export { querySource } from './sql';
export { describeMigrations, type MigrationSubject } from './migration-suite';
export {
  buildService,
  startServiceProcess,
  httpRequest,
  startOtlpReceiver,
  holdRequestOpen,
  type ServiceProcess,
  type HttpOutcome,
} from './service-process';
export {
  readmeWalkthrough,
  freePort,
  runBash,
  missingInOrder,
  type Walkthrough,
  type ScriptOutcome,
} from './readme-walkthrough';
