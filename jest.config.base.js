// Shared Jest settings: TypeScript through SWC (CommonJS output), keeping
// dynamic import() native so ESM-only packages (PGlite's WebAssembly, the
// Prisma schema engine) load under --experimental-vm-modules.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/src/**/*.test.ts'],
  transform: {
    '^.+\\.(ts|m?js)$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs', ignoreDynamic: true },
      },
    ],
  },
  // jose (under jwks-rsa) ships ESM only; Node 20 requires it natively, Jest's
  // CommonJS loader needs it compiled like our own sources.
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/)?jose[@/])'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 30_000,
  // Beside Jest's own output, one line per finished test file: the package's files done out of its
  // total and the time so far (scripts/jest-progress.js), so a long `npm test` shows how far it is.
  reporters: ['default', require.resolve('./scripts/jest-progress.js')],
};
