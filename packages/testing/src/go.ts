import { spawnSync } from 'node:child_process';

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
