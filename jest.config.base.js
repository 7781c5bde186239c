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
};

const fs = require('node:fs');
const path = require('node:path');

const progressReporter = require.resolve('./scripts/jest-progress.js');
const suiteSets = ['all', 'fast', 'slow'];

/**
 * `config` with the test files chosen by TEST_SUITES. Each package names its slow suites (`slow`:
 * file names under test/ without `.test.ts`): those that start programs (the built service, npm
 * start, Chromium, a Go program), run Prisma's schema engine, or fuzz for a fixed time. `npm test`
 * sets TEST_SUITES=fast and leaves them out; `npm run test:slow` sets TEST_SUITES=slow and runs
 * only them; unset (jest run in a package, `npm run test:one`, the apps' GitHub workflows) is
 * `all`. Beside Jest's own output, one line per finished test file with the package's count and
 * time (scripts/jest-progress.js), and in `fast` one line naming what was left out.
 */
function withSuites(config, slow, packageDir) {
  const set = process.env.TEST_SUITES || 'all';
  if (!suiteSets.includes(set)) {
    throw new Error(`TEST_SUITES=${set} is not one of ${suiteSets.join(', ')}`);
  }
  // A renamed or deleted file must not leave its name behind, nor make a suite fall out of both sets.
  const missing = slow.filter((name) => !fs.existsSync(path.join(packageDir, 'test', `${name}.test.ts`)));
  if (missing.length > 0) {
    throw new Error(`slow suites without a file under ${packageDir}/test: ${missing.join(', ')}`);
  }
  const ignored = config.testPathIgnorePatterns ?? ['/node_modules/'];
  const slowFile = `/test/(?:${slow.join('|')})\\.test\\.ts$`;
  // `fast` ignores the slow files; `slow` everything else (a package without slow suites runs
  // nothing there, which is no failure).
  const selection = {
    all: {},
    fast: { testPathIgnorePatterns: [...ignored, slowFile] },
    slow: { testPathIgnorePatterns: [...ignored, `^(?!.*${slowFile})`], passWithNoTests: true },
  }[set];
  return {
    ...config,
    ...selection,
    reporters: ['default', [progressReporter, { leftOut: set === 'fast' ? slow.length : 0 }]],
  };
}

// Not enumerable: the packages spread this config into theirs, and Jest knows no such option.
Object.defineProperty(module.exports, 'withSuites', { value: withSuites });
