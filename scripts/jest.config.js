module.exports = {
  ...require('../jest.config.base.js'),
  // Each file starts both services through the root command: one file at a time.
  maxWorkers: 1,
  // The first start after a change builds both apps (turbo), which may take minutes on two cores.
  testTimeout: 300_000,
};
