import path from 'node:path';
import { declaredGoSubtests, runGoTestProgram, goForTests } from '@repo/testing';
import { siteAdmin, testSettings, useCodeHostingApi } from './app';

// The official Gitea Go SDK, vendored unchanged in test/go-sdk (README there), run as a
// Go test program against this service over real HTTP: every SDK call for our operations,
// one Go subtest each. Without Go: one line saying they were not run, and a failure where
// GO_INTEROP=required (`.ci/run` sets it, so CI fails without Go).
const programDir = path.join(__dirname, 'go-sdk');
const goInstalled = goForTests('code-hosting-api go-sdk.test.ts: the Gitea Go SDK round trips');

if (goInstalled)
  describe('the Gitea Go SDK against the service', () => {
    // On a real port, ROOT_URL its own address: the Go program follows download URLs and Link.
    const service = useCodeHostingApi({}, { rootUrlIsServer: true });

    it('passes every subtest of the Go program (each SDK call for our operations)', async () => {
      const outcome = await runGoTestProgram({
        programDir,
        subtests: declaredGoSubtests(path.join(programDir, 'main_test.go'), 'TestSDK'),
        env: {
          GITEA_URL: service.baseUrl,
          GITEA_ADMIN_USER: siteAdmin.username,
          GITEA_ADMIN_PASSWORD: siteAdmin.password,
          GITEA_VERSION: testSettings.giteaVersion,
        },
      });
      // The Go output names the call and what it got; shown whole when anything failed.
      expect(outcome).toEqual({ failures: [], code: 0, output: '' });
    }, 240_000);
  });
