// The slow suites (jest.config.base.js, withSuites): each starts programs (the built service, Chromium,
// a Go program), runs Prisma's schema engine or fuzzes for a fixed time. `npm test` leaves them out,
// `npm run test:slow` runs them, .ci/run runs both.
module.exports = [
  'api-docs-browser',
  'body-fuzz',
  'codec-fuzz',
  'hostile-requests',
  'lfx-client',
  'log-secrets',
  'migrations',
  'readme-walkthrough',
  'server-timeouts',
  'shutdown',
  'tracing',
  'unusable-database',
];
