import path from 'node:path';
import { runGoTestProgram, goForTests } from '@repo/testing';
import { ADMIN_PRINCIPAL, bearer, useProjectService } from './app';

// LFX's own generated Go client (Goa), vendored unchanged in test/lfx-client (README there), run
// as a Go test program against this service over real HTTP: every operation the client has, in
// JSON, XML and gob, on a project with every optional field set and on one with only the required
// ones, one Go subtest each. Without Go: one line saying they were not run, and a failure where
// GO_INTEROP=required (`.ci/run` sets it, so CI fails without Go).
const programDir = path.join(__dirname, 'lfx-client');
const goInstalled = goForTests("project-service lfx-client.test.ts: LFX's Go client round trips");

const FORMATS = ['json', 'xml', 'gob'];
const KINDS = ['full', 'sparse'];
/** The client's operations on projects: one subtest per format and kind of project. */
const PROJECT_OPERATIONS = [
  'GetProjects',
  'CreateProject',
  'GetOneProjectBase',
  'GetOneProjectSettings',
  'UpdateProjectBase',
  'UpdateProjectSettings',
  'DeleteProject',
];
/** The probes, and the answers where we deliberately differ from LFX (412, 401, 403, 409): one per format. */
const PER_FORMAT = ['Livez', 'Readyz', 'StaleIfMatch', 'Unauthenticated', 'Forbidden', 'DeleteWithChildren'];

const SUBTESTS = [
  ...PROJECT_OPERATIONS.flatMap((operation) =>
    FORMATS.flatMap((format) => KINDS.map((kind) => `TestLFXClient/${operation}/${format}/${kind}`)),
  ),
  ...PER_FORMAT.flatMap((check) => FORMATS.map((format) => `TestLFXClient/${check}/${format}`)),
];

const token = (principal: string) => bearer(principal).replace(/^Bearer /, '');

if (goInstalled)
  describe("LFX's Go client against the service", () => {
    // On a real port: the Go program is an HTTP client like any other.
    const service = useProjectService();

    it('passes every subtest of the Go program (each operation, format and kind of project)', async () => {
      const outcome = await runGoTestProgram({
        programDir,
        subtests: SUBTESTS,
        env: {
          PROJECT_SERVICE_URL: service.baseUrl,
          PROJECT_SERVICE_TOKEN: token(ADMIN_PRINCIPAL),
          // A caller with no role anywhere: may view public projects, write none.
          PROJECT_SERVICE_VIEWER_TOKEN: token('lfx-client-viewer'),
        },
      });
      // The Go output names the call and what it got; shown whole when anything failed.
      expect(outcome).toEqual({ failures: [], code: 0, output: '' });
    }, 240_000);
  });
