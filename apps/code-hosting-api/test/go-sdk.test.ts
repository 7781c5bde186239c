import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, goForTests, type TestDatabase } from '@repo/testing';
import { connectPrisma, type Database } from '../src/db/database';
import { createStore } from '../src/db/store';
import { accountService } from '../src/domain/accounts';
import { buildApp } from '../src/http/app';
import { createLogger } from '../src/logger';
import { openTestStorage, siteAdmin, testSettings } from './app';

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
    let database: TestDatabase | undefined;
    let connection: Database | undefined;
    let storage: Awaited<ReturnType<typeof openTestStorage>> | undefined;
    let server: http.Server | undefined;
    let baseUrl = '';
    let buildDir = '';

    beforeAll(async () => {
      database = await createTestDatabase();
      connection = connectPrisma(database.source);
      storage = await openTestStorage('disk');
      await accountService(createStore(connection.prisma), testSettings).bootstrapAdmin(siteAdmin, false);
      // Listen first: ROOT_URL must be the address the Go program reaches (download URLs, Link).
      let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
      server = http.createServer((req, res) => handler(req, res));
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      handler = buildApp({
        database: connection,
        logger: createLogger(process.env.LOG_LEVEL ?? 'silent'),
        rootUrl: `${baseUrl}/`,
        settings: testSettings,
        storage: storage.storage,
      }).app;
      buildDir = mkdtempSync(path.join(os.tmpdir(), 'go-sdk-'));
    }, 120_000);

    afterAll(async () => {
      if (server) {
        server.closeAllConnections();
        await new Promise((resolve) => server!.close(resolve));
      }
      await connection?.close();
      await storage?.close();
      await database?.drop();
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
              GITEA_URL: baseUrl,
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
