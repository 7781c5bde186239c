import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../ports';
import { findGo, goBuildCache, goForTests } from '../go';
import { missingInOrder, readmeWalkthrough, runBash, runsGo } from '../readme-walkthrough';
import { PROCESS_START_MS, startServiceProcess, type ServiceProcess } from '../service-process';
import { createTestDatabase, type TestDatabase } from '../test-database';

export interface ReadmeWalkthroughOptions {
  /** The app's folder: its README.md and built service. */
  appDir: string;
  /** The README's walk-through, `## <heading>`: its blocks and every one above it are run. */
  heading: string;
  /** The port the section's commands use (http://localhost:<port>); the run's own port replaces it. */
  readmePort: number;
  /** What the service needs to start besides a data folder and a port. */
  env?: Record<string, string>;
  /** The line of the first start's output that gives the reader a token: the token is its first group. */
  printedToken: RegExp;
  /** Other texts the first start must print, as the README says it does. */
  alsoPrinted?: string[];
  /** Commands the section must hold, so that a shortened walk-through fails. */
  steps: string[];
  /** The section's `# →` expectations must be more than this. */
  moreExpectedThan: number;
  /** The names Jest reports. */
  titles: { describe: string; printed: string; runs: string };
}

/**
 * A README walk-through, run as a reader would: the built service started with nothing but a data
 * folder and a port, the token it prints at its first start (exported, as the README has the reader
 * do), then every shell block of the README from its top through the walk-through pasted into one
 * bash, in order. Only the port differs from the README's. Blocks that run Go are left out, saying
 * so, where there is no Go toolchain (and fail the suite with GO_INTEROP=required).
 */
export function describeReadmeWalkthrough(options: ReadmeWalkthroughOptions): void {
  const { appDir, printedToken } = options;
  const readme = readFileSync(path.join(appDir, 'README.md'), 'utf8');
  const readmeUrl = `http://localhost:${options.readmePort}`;
  const needsGo = readmeWalkthrough(readme, options.heading).blocks.some(runsGo);
  const go = needsGo && goForTests(`${path.basename(appDir)} README walk-through`, findGo());

  let service: ServiceProcess | undefined;
  let database: TestDatabase | undefined;
  let dataDir: string;
  let port: number;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), `${path.basename(appDir)}-readme-`));
    if (process.env['DATABASE_URL']) database = await createTestDatabase();
    // The port is chosen before the start (the service's URLs name it), so another process may
    // take it in between: then the start fails with EADDRINUSE and another port is tried.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        service = await startServiceProcess(appDir, {
          PORT: String(port),
          DATA_DIR: dataDir,
          ...options.env,
          ...(database?.source.kind === 'postgres' ? { DATABASE_URL: database.source.url } : {}),
        });
        break;
      } catch (error) {
        if (attempt === 3 || !String(error).includes('EADDRINUSE')) throw error;
      }
    }
  }, PROCESS_START_MS);

  afterAll(async () => {
    if (service) {
      service.kill();
      await service.exited;
    }
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  describe(options.titles.describe, () => {
    it(options.titles.printed, () => {
      const printed = service!.output.join('\n');
      for (const text of options.alsoPrinted ?? []) expect(printed).toContain(text);
      expect(printed).toMatch(printedToken);
    });

    it(
      options.titles.runs,
      async () => {
        const token = printedToken.exec(service!.output.join('\n'))![1]!;
        const { script, expected } = readmeWalkthrough(readme, options.heading, go ? undefined : runsGo);
        for (const step of options.steps) expect(script).toContain(step);
        expect(script).toContain(readmeUrl);
        const outcome = await runBash(script.replaceAll(readmeUrl, `http://localhost:${port}`), {
          TOKEN: token,
          // The reader's own build cache: a fresh one would compile Go's standard library first.
          ...(go ? { GOCACHE: goBuildCache() } : {}),
        });
        expect({ code: outcome.code, stderr: outcome.stderr }).toEqual({ code: 0, stderr: '' });
        expect(expected.length).toBeGreaterThan(options.moreExpectedThan);
        expect(missingInOrder(outcome.stdout, expected)).toEqual([]);
      },
      120_000,
    );
  });
}
