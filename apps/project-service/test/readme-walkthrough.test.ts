import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  createTestDatabase,
  freePort,
  missingInOrder,
  readmeWalkthrough,
  runBash,
  startServiceProcess,
  type ServiceProcess,
  type TestDatabase,
} from '@repo/testing';

// The README's "Try it with curl", run as a reader would: the built service started with no key
// configured, the development token it prints, then every shell block of the section pasted into
// one bash, in order. Only the port differs from the README's 8080.
const appDir = path.resolve(__dirname, '..');
const readme = readFileSync(path.join(appDir, 'README.md'), 'utf8');
const printedToken = /^ {2}export TOKEN=(\S+)$/m;

let service: ServiceProcess | undefined;
let database: TestDatabase | undefined;
let dataDir: string;
let port: number;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'project-service-readme-'));
  if (process.env['DATABASE_URL']) database = await createTestDatabase();
  port = await freePort();
  service = await startServiceProcess(appDir, {
    PORT: String(port),
    DATA_DIR: dataDir,
    ...(database?.source.kind === 'postgres' ? { DATABASE_URL: database.source.url } : {}),
  });
}, 120_000);

afterAll(async () => {
  if (service) {
    service.kill();
    await service.exited;
  }
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('README "Try it with curl"', () => {
  it('prints the development admin token as a line to paste', () => {
    expect(service!.output.join('\n')).toMatch(printedToken);
  });

  it('runs verbatim from that token through create, read, update, settings and delete', async () => {
    const token = printedToken.exec(service!.output.join('\n'))![1]!;
    const { script, expected } = readmeWalkthrough(readme, 'Try it with curl');
    for (const step of ['-X POST', 'If-Match', '-X PUT', '/settings', '-X DELETE'])
      expect(script).toContain(step);
    expect(script).toContain('http://localhost:8080');
    const outcome = await runBash(script.replaceAll('http://localhost:8080', `http://localhost:${port}`), {
      TOKEN: token,
    });
    expect({ code: outcome.code, stderr: outcome.stderr }).toEqual({ code: 0, stderr: '' });
    expect(expected.length).toBeGreaterThan(8);
    expect(missingInOrder(outcome.stdout, expected)).toEqual([]);
  }, 60_000);
});
