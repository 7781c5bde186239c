// Generated from apps/project-service/jest.config.js by `npm run sync:copies`: edit that file, not this copy.
module.exports = {
  ...require('../../jest.config.base.js'),
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
};
