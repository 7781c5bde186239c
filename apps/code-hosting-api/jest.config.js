// Generated from apps/project-service/jest.config.js by `npm run sync:copies`: edit that file, not this copy.
// The change-event tests (test/events/) need a NATS JetStream server: without NATS_URL they are left
// out, and the global setup says so in one line (announceSkippedEventTests).
const base = require('../../jest.config.base.js');

module.exports = {
  ...base,
  testPathIgnorePatterns: [
    ...(base.testPathIgnorePatterns ?? ['/node_modules/']),
    ...(process.env.NATS_URL ? [] : ['/test/events/']),
    // Tests of two service processes on one database: PostgreSQL only (the global setup says so).
    ...(process.env.DATABASE_URL ? [] : ['/test/events/replicas\\.test\\.ts$', '/test/replicas/']),
  ],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
};
