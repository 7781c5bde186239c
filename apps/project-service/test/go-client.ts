import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findGo } from '@repo/testing';

/**
 * The Go client in test/go-client, built once per test file. Where no Go
 * toolchain is installed, tests fall back to the committed golden files and this
 * service's own codecs; the interop test files (go-golden, formats) say so in one
 * line each through goForTests, and fail where GO_INTEROP=required (as `.ci/run` sets).
 */
export const goLookup = findGo();
export const goAvailable = goLookup.found;
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
