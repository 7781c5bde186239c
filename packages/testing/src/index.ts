export {
  prepareDatabaseTemplate,
  dropDatabaseTemplate,
  type MigrateFunction,
  type TestDatabaseSource,
} from './database-template';
export { createTestDatabase, type TestDatabase } from './test-database';
export {
  useTestApp,
  testAppReplicas,
  type TestApp,
  type TestAppContext,
  type TestAppFactory,
  type TestAppInstance,
} from './test-app';
export { signTestToken, generateRsaKeyPair, type TestSigningKey } from './jwt';
export { querySource } from './sql';
export {
  describeMigrations,
  onlineMigrationProblems,
  ONLINE_MIGRATIONS_SINCE,
  type MigrationSubject,
} from './suites/migrations';
export {
  compileApp,
  startServiceProcess,
  spawnServiceProcess,
  httpRequest,
  startOtlpReceiver,
  holdRequestOpen,
  runServiceProcess,
  type ServiceProcess,
  type StartingServiceProcess,
  type ServiceRun,
  type HttpOutcome,
} from './service-process';
export { startBalancer, type Balancer, type BalancerCounts, type BalancerOptions } from './balancer';
export {
  announceSkippedReplicaTests,
  startReplicaSet,
  type ReplicaSet,
  type ReplicaSetOptions,
} from './replicas';
export {
  findChromium,
  browserTestsRequired,
  chromiumForTests,
  launchChromium,
  watchedPage,
  type ChromiumLookup,
  type PageWatch,
} from './browser';
export {
  findGo,
  goInteropRequired,
  goForTests,
  declaredGoSubtests,
  runGoTestProgram,
  type GoLookup,
  type GoTestProgramOptions,
  type GoTestProgramOutcome,
} from './go';
export { describeGoVendor, type GoVendorOptions } from './suites/go-vendor';
export {
  readmeWalkthrough,
  runsGo,
  runBash,
  missingInOrder,
  type Walkthrough,
  type ScriptOutcome,
} from './readme-walkthrough';
export { freePort } from './ports';
export {
  natsUrlForTests,
  announceSkippedEventTests,
  findNatsServer,
  natsTestsRequired,
  natsServerForTests,
  startNatsServer,
  uniqueEventNames,
  watchEvents,
  deleteStream,
  streamInfo,
  type NatsServerLookup,
  type NatsServer,
  type ReceivedEvent,
  type EventWatch,
  type StreamSummary,
} from './nats';
export { rawHttp, type RawRequest, type RawResponse } from './raw-http';
export { createServiceHome, type ServiceHome } from './service-home';
export { describeUnusableDatabase, type UnusableDatabaseOptions } from './suites/unusable-database';
export { describeEndedConnections, type EndedConnectionsOptions } from './suites/ended-connections';
export {
  describeConfigurationTable,
  type ConfigurationTableOptions,
  type VariableSchema,
} from './suites/configuration-table';
export {
  describeDefaultDatabaseLimits,
  type DatabaseLimitsOptions,
  type DatabaseWaits,
} from './suites/database-limits';
export { describeApiDocsPage, type ApiDocsPageOptions } from './suites/api-docs-page';
export { describeServerTimeouts, type ServerTimeoutsOptions } from './suites/server-timeouts';
export { describeTracing, type TracingOptions } from './suites/tracing';
export {
  describeGracefulShutdown,
  type GracefulShutdownOptions,
  type ShutdownWorkload,
} from './suites/graceful-shutdown';
export {
  describeRollingRestart,
  type RollingRestartOptions,
  type RollingWorkload,
  type Send,
} from './suites/rolling-restart';
export { describeMigratingReplicas, type MigratingReplicasOptions } from './suites/migrating-replicas';
export { describeHealthSurface, type HealthSurfaceOptions } from './suites/health';
export { describeServerPrototypes, type ServerPrototypesOptions } from './suites/server-prototypes';
export {
  capturedLogLines,
  scrapeMetrics,
  metricSample,
  describeMetricsAccess,
  type MetricsAccessOptions,
} from './suites/metrics';
export { describeReadmeWalkthrough, type ReadmeWalkthroughOptions } from './suites/readme-walkthrough';
export {
  describeApiDocsBrowser,
  type ApiDocsBrowserOptions,
  type TryOutCaller,
} from './suites/api-docs-browser';
export {
  credentialLeaks,
  describeProcessLogSecrets,
  type ProcessLogSecretsOptions,
} from './suites/log-secrets';
export {
  CREDENTIAL_NAME_FRAGMENTS,
  PLAIN_HEADER,
  describeMisplacedCredentialLogs,
  misplacedCredentialRequests,
  sendMisplacedCredentials,
  type MisplacedCredentialLogsOptions,
  type MisplacedCredentials,
  type MisplacedRequest,
} from './suites/misplaced-credentials';
export { sequentialScans, type RanStatement, type SequentialScan } from './query-plans';
export { openStreamReader, type StreamReader, type StoredMessage } from './stream-reader';
export { describeXSync, type XSyncOptions, type SyncedWrite, type SentWrite } from './suites/x-sync';
