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

// The README's walk-through, run as a reader would: the built service started with nothing but a
// data folder and a port, the token it prints at its first start, then every shell block of the
// section pasted into one bash, in order. Only the port differs from the README's 3000.
const appDir = path.resolve(__dirname, '..');
const readme = readFileSync(path.join(appDir, 'README.md'), 'utf8');

let service: ServiceProcess | undefined;
let database: TestDatabase | undefined;
let dataDir: string;
let port: number;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'code-hosting-api-readme-'));
  if (process.env['DATABASE_URL']) database = await createTestDatabase();
  port = await freePort();
  service = await startServiceProcess(appDir, {
    PORT: String(port),
    DATA_DIR: dataDir,
    PASSWORD_HASH_COST: '16',
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

describe('README walk-through with curl', () => {
  it('prints the site administrator and its token at the first start, as the README says', () => {
    const printed = service!.output.join('\n');
    expect(printed).toContain('Created site administrator "root"');
    expect(printed).toMatch(/^ {2}token: {4}[0-9a-f]{40}$/m);
  });

  it('runs verbatim from that token to an attachment renamed and deleted', async () => {
    const token = /^ {2}token: {4}([0-9a-f]{40})$/m.exec(service!.output.join('\n'))![1]!;
    const { script, expected } = readmeWalkthrough(readme, 'Walk-through with curl');
    for (const step of ['/issues', '/assets', 'attachment=@', '-X PATCH', '-X DELETE', 'Range:'])
      expect(script).toContain(step);
    expect(script).toContain('http://localhost:3000');
    const outcome = await runBash(script.replaceAll('http://localhost:3000', `http://localhost:${port}`), {
      TOKEN: token,
    });
    expect({ code: outcome.code, stderr: outcome.stderr }).toEqual({ code: 0, stderr: '' });
    expect(expected.length).toBeGreaterThan(10);
    expect(missingInOrder(outcome.stdout, expected)).toEqual([]);
  }, 60_000);
});
