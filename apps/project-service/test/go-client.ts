import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The Go client in test/go-client, built once per test file. Where no Go
 * toolchain is installed, tests fall back to the committed golden files;
 * `.ci/run` sets GO_INTEROP=required so CI always runs the real round trips.
 */
const goInstalled = spawnSync('go', ['version'], { encoding: 'utf8' }).status === 0;
if (!goInstalled && process.env.GO_INTEROP === 'required') {
  throw new Error('GO_INTEROP=required but no Go toolchain is on PATH (apt-get install golang-go)');
}

export const goAvailable = goInstalled;
export const goldenDir = path.join(__dirname, 'go-client', 'golden');

let binary: string | undefined;
let buildDir: string | undefined;

function goClientBinary(): string {
  if (binary) return binary;
  buildDir = mkdtempSync(path.join(os.tmpdir(), 'go-client-'));
  binary = path.join(buildDir, 'go-client');
  execFileSync('go', ['build', '-o', binary, '.'], {
    cwd: path.join(__dirname, 'go-client'),
    // Standard library only: nothing may be fetched.
    env: { ...process.env, GOPROXY: 'off', GOFLAGS: '-mod=mod', GO111MODULE: 'on' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return binary;
}

afterAll(() => {
  if (buildDir) rmSync(buildDir, { recursive: true, force: true });
});

/** Go encodes a JSON value of a request representation as XML or gob. */
export function goEncode(representation: string, format: 'xml' | 'gob', json: unknown): Buffer {
  return execFileSync(goClientBinary(), ['encode', representation, format], { input: JSON.stringify(json) });
}

/** Go decodes an XML or gob body into its structs and prints them as JSON, zero values filled in. */
export function goDecode(representation: string, format: 'xml' | 'gob', body: Buffer | string): unknown {
  return JSON.parse(
    execFileSync(goClientBinary(), ['decode', representation, format], { input: body }).toString('utf8'),
  );
}
