export {
  prepareDatabaseTemplate,
  dropDatabaseTemplate,
  type MigrateFunction,
  type TestDatabaseSource,
} from './database-template';
export { createTestDatabase, type TestDatabase } from './test-database';
export {
  useTestApp,
  type TestApp,
  type TestAppContext,
  type TestAppFactory,
  type TestAppInstance,
} from './test-app';
export { signTestToken, generateRsaKeyPair, type TestSigningKey } from './jwt';
export { querySource } from './sql';
export { describeMigrations, type MigrationSubject } from './migration-suite';
export {
  buildService,
  startServiceProcess,
  httpRequest,
  startOtlpReceiver,
  holdRequestOpen,
  runServiceProcess,
  type ServiceProcess,
  type ServiceRun,
  type HttpOutcome,
} from './service-process';
export {
  findChromium,
  browserTestsRequired,
  chromiumForTests,
  launchChromium,
  watchedPage,
  type ChromiumLookup,
  type PageWatch,
} from './browser';
export { findGo, goInteropRequired, goForTests, type GoLookup } from './go';
export {
  readmeWalkthrough,
  runBash,
  missingInOrder,
  type Walkthrough,
  type ScriptOutcome,
} from './readme-walkthrough';
export { freePort } from './ports';
export { rawHttp, type RawRequest, type RawResponse } from './raw-http';
