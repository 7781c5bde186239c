// A Jest reporter beside the default one: after each test file, one line with the package's count
// of files done out of its total, its failures so far and the time since it started, so a long
// `npm test` (several packages at once under turbo, each line prefixed with its package) shows how
// far each package has come. Node's standard library only, like the rest of scripts/.
const path = require('node:path');

function minutesAndSeconds(ms) {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

class ProgressReporter {
  constructor(globalConfig, options = {}) {
    this.name = path.basename(globalConfig.rootDir);
    this.leftOut = options.leftOut ?? 0;
    this.total = 0;
    this.done = 0;
    this.failed = 0;
    this.started = Date.now();
  }

  onRunStart(results) {
    this.total = results.numTotalTestSuites;
    this.started = Date.now();
    if (this.leftOut > 0) {
      process.stderr.write(
        `${this.name}: ${this.leftOut} slow test files not run (they start programs, run the schema engine or fuzz): ` +
          'npm run test:slow runs them, as .ci/run does\n',
      );
    }
  }

  onTestResult(_test, result) {
    this.done += 1;
    if (result.numFailingTests > 0 || result.testExecError) this.failed += 1;
    const failures = this.failed === 0 ? '' : `, ${this.failed} failed`;
    process.stderr.write(
      `${this.name}: ${this.done}/${this.total} test files${failures}, ${minutesAndSeconds(Date.now() - this.started)}\n`,
    );
  }
}

module.exports = ProgressReporter;
