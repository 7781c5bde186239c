const base = require('../jest.config.base.js');

// Slow (jest.config.base.js, withSuites): both start the services through the root commands.
module.exports = base.withSuites(
  {
    ...base,
    // Each file starts both services through the root command: one file at a time.
    maxWorkers: 1,
    // The first start after a change builds both apps (turbo), which may take minutes on two cores.
    testTimeout: 300_000,
  },
  ['start', 'app-commands'],
  __dirname,
);
