// The change-event tests (test/events/) need a NATS JetStream server: without NATS_URL they are left
// out, and the global setup says so in one line (announceSkippedEventTests).
const base = require('../../jest.config.base.js');
const slowSuites = require('./test/slow-suites.js');

// TEST_APP_REPLICAS=2 (.ci/run, PostgreSQL): the contract suites again, each test file's requests
// going in turn to two instances of the app on one database (@repo/testing's useTestApp). Left out
// then: the suites whose subject is one process (they start the built service or its commands
// themselves, stop its database, read its own logs, or count the statements one process saves:
// token-use), the replicas' own tests (test/replicas/,
// test/events/replicas.test.ts: several real processes already) and the fuzzers (a process's
// parsing of hostile bytes, which no second replica changes).
const oneProcessSuites = [
  'api-docs-browser',
  'configuration-table',
  'database-limits',
  'log-secrets',
  'migrations',
  'readme-walkthrough',
  'server-timeouts',
  'shutdown',
  'tracing',
  'unusable-database',
  'hostile-requests',
  'body-fuzz',
  'codec-fuzz',
  'events/nats-outage',
  'events/relay-crash',
  'events/replicas',
  'events/event-commands-cli',
  'events/event-commands',
  'token-use',
];
const replicated = Number(process.env.TEST_APP_REPLICAS || 1) > 1;

module.exports = base.withSuites(
  {
    ...base,
    testPathIgnorePatterns: [
      ...(base.testPathIgnorePatterns ?? ['/node_modules/']),
      ...(process.env.NATS_URL ? [] : ['/test/events/']),
      // Tests of two service processes on one database, of PostgreSQL's query plans and of a
      // service meeting a PostgreSQL server's ways (test/postgres/): PostgreSQL only (the global
      // setup says so).
      ...(process.env.DATABASE_URL
        ? []
        : ['/test/events/replicas\\.test\\.ts$', '/test/replicas/', '/test/plans/', '/test/postgres/']),
      ...(replicated
        ? [
            '/test/replicas/',
            '/test/plans/',
            '/test/postgres/',
            ...oneProcessSuites.map((name) => `/test/${name}\\.test\\.ts$`),
          ]
        : []),
    ],
    globalSetup: '<rootDir>/test/global-setup.ts',
    globalTeardown: '<rootDir>/test/global-teardown.ts',
  },
  slowSuites,
  __dirname,
);
