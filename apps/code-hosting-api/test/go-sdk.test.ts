import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { goForTests } from '@repo/testing';
import { siteAdmin, testSettings, useCodeHostingApi } from './app';

// The official Gitea Go SDK, vendored unchanged in test/go-sdk (README there), run as a
// Go test program against this service over real HTTP: every SDK call for our operations,
// one Go subtest each. Without Go: one line saying they were not run, and a failure where
// GO_INTEROP=required (`.ci/run` sets it, so CI fails without Go).
const programDir = path.join(__dirname, 'go-sdk');
const goInstalled = goForTests('code-hosting-api go-sdk.test.ts: the Gitea Go SDK round trips');

/** The subtests main_test.go declares, in order: each must run and pass. */
function declaredSubtests(): string[] {
  const source = readFileSync(path.join(programDir, 'main_test.go'), 'utf8');
  return [...source.matchAll(/^\tt\.Run\("([^"]+)"/gm)].map((match) => `TestSDK/${match[1]}`);
}

const goEnvironment = { ...process.env, GOFLAGS: '-mod=vendor', GOPROXY: 'off', GO111MODULE: 'on' };

if (goInstalled)
  describe('the Gitea Go SDK against the service', () => {
    // On a real port, ROOT_URL its own address: the Go program follows download URLs and Link.
    const service = useCodeHostingApi({}, { rootUrlIsServer: true });
    let buildDir = '';

    beforeAll(() => {
      buildDir = mkdtempSync(path.join(os.tmpdir(), 'go-sdk-'));
    });

    afterAll(() => {
      if (buildDir) rmSync(buildDir, { recursive: true, force: true });
    });

    it('passes every subtest of the Go program (each SDK call for our operations)', async () => {
      const binary = path.join(buildDir, 'go-sdk.test');
      await promisify(execFile)('go', ['test', '-c', '-o', binary, '.'], {
        cwd: programDir,
        env: goEnvironment,
      });
      const outcome = await new Promise<{ code: number | null; output: string }>((resolve) => {
        execFile(
          binary,
          ['-test.v', '-test.count=1'],
          {
            cwd: programDir,
            env: {
              ...process.env,
              GITEA_URL: service.baseUrl,
              GITEA_ADMIN_USER: siteAdmin.username,
              GITEA_ADMIN_PASSWORD: siteAdmin.password,
              GITEA_VERSION: testSettings.giteaVersion,
            },
            maxBuffer: 16 << 20,
          },
          (error, stdout, stderr) =>
            resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
        );
      });
      const results = new Map(
        [...outcome.output.matchAll(/^\s*--- (PASS|FAIL|SKIP): (\S+)/gm)].map((m) => [m[2]!, m[1]!]),
      );
      const failures = declaredSubtests()
        .filter((name) => results.get(name) !== 'PASS')
        .map((name) => `${name}: ${results.get(name) ?? 'did not run'}`);
      // The Go output names the call and what it got; shown whole when anything failed.
      expect({ failures, output: failures.length > 0 ? outcome.output : '' }).toEqual({
        failures: [],
        output: '',
      });
      expect(outcome.code).toBe(0);
    }, 240_000);
  });
