module.exports = {
  ...require('../jest.config.base.js'),
  // Each file starts both services through the root command: one file at a time.
  maxWorkers: 1,
  testTimeout: 120_000,
};
