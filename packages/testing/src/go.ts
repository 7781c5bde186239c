import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export type GoLookup = { found: true; version: string } | { found: false; reason: string };

/** The Go toolchain on PATH (`go version`), or why there is none. */
export function findGo(env: NodeJS.ProcessEnv = process.env): GoLookup {
  const run = spawnSync('go', ['version'], { encoding: 'utf8', env });
  if (run.status === 0) return { found: true, version: run.stdout.trim() };
  const why = run.error ? run.error.message : `go version exited ${run.status}: ${run.stderr.trim()}`;
  return { found: false, reason: `no Go toolchain on PATH (${why}; apt-get install golang-go)` };
}

/** GO_INTEROP=required (as in .ci/run): a missing Go fails the suite instead of being reported. */
export function goInteropRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['GO_INTEROP'] === 'required';
}

/**
 * For a test file whose tests run a Go program: true with a Go toolchain; without one, prints one
 * line saying the Go interop tests were not run and why, and registers one test that fails when
 * GO_INTEROP=required (and passes otherwise, having said so). Call it at the top of the file.
 */
export function goForTests(suite: string, lookup: GoLookup = findGo()): boolean {
  if (lookup.found) return true;
  const line = `${suite}: Go interop tests NOT run: ${lookup.reason}`;
  if (!goInteropRequired()) process.stderr.write(`${line}\n`);
  it('has a Go toolchain to run the Go interop tests (required when GO_INTEROP=required)', () => {
    if (goInteropRequired()) throw new Error(`${line}; GO_INTEROP=required`);
  });
  return false;
}

/** Where the Go toolchain keeps its build cache (`go env GOCACHE`), for a program run with another HOME. */
export function goBuildCache(env: NodeJS.ProcessEnv = process.env): string {
  const run = spawnSync('go', ['env', 'GOCACHE'], { encoding: 'utf8', env });
  if (run.status !== 0) throw new Error(`go env GOCACHE exited ${run.status}: ${run.stderr.trim()}`);
  return run.stdout.trim();
}

/** The subtests a Go test file declares as `\tt.Run("<name>", …)` in `test`, as `<test>/<name>`. */
export function declaredGoSubtests(file: string, test: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/^\tt\.Run\("([^"]+)"/gm)].map((match) => `${test}/${match[1]}`);
}

export interface GoTestProgramOptions {
  /** The program's directory: its go.mod, its `_test.go` files and a vendor/ tree of every module. */
  programDir: string;
  /** Full names (`TestX/Sub/…`) of the subtests that must each run and PASS. */
  subtests: string[];
  /** Set for the program, on top of this process's environment. */
  env: NodeJS.ProcessEnv;
}

export interface GoTestProgramOutcome {
  /** `<subtest>: FAIL`, `SKIP` or `did not run`, for each listed subtest that did not PASS. */
  failures: string[];
  /** The program's exit code. */
  code: number | null;
  /** The Go output whole (it names each call and what it got) when anything failed; else empty. */
  output: string;
}

/**
 * Builds a Go test program (`go test -c`, `-mod=vendor`, `GOPROXY=off`: nothing is downloaded) and
 * runs it with `-test.v`. Passed when `{ failures: [], code: 0, output: '' }`.
 */
export async function runGoTestProgram(options: GoTestProgramOptions): Promise<GoTestProgramOutcome> {
  const buildDir = mkdtempSync(path.join(os.tmpdir(), 'go-test-program-'));
  try {
    const binary = path.join(buildDir, 'program.test');
    await promisify(execFile)('go', ['test', '-c', '-o', binary, '.'], {
      cwd: options.programDir,
      env: { ...process.env, GOFLAGS: '-mod=vendor', GOPROXY: 'off', GO111MODULE: 'on' },
    });
    const run = await new Promise<{ code: number | null; output: string }>((resolve) => {
      execFile(
        binary,
        ['-test.v', '-test.count=1'],
        { cwd: options.programDir, env: { ...process.env, ...options.env }, maxBuffer: 16 << 20 },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
      );
    });
    const results = new Map(
      [...run.output.matchAll(/^\s*--- (PASS|FAIL|SKIP): (\S+)/gm)].map((m) => [m[2]!, m[1]!]),
    );
    const failures = options.subtests
      .filter((name) => results.get(name) !== 'PASS')
      .map((name) => `${name}: ${results.get(name) ?? 'did not run'}`);
    return { failures, code: run.code, output: failures.length > 0 || run.code !== 0 ? run.output : '' };
  } finally {
    rmSync(buildDir, { recursive: true, force: true });
  }
}
