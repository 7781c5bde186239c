const base = require('../../jest.config.base.js');

// No slow suites (jest.config.base.js, withSuites): `npm run test:slow` runs nothing here.
module.exports = base.withSuites({ ...base }, [], __dirname);
