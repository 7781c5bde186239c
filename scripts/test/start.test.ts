import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { root, serviceHomes, startRoot, waitFor200, type RootStart, type ServiceName } from './root-start';

const METRICS_TOKEN = 'start-test-metrics-token';
const admin = { username: 'start-admin', password: 'start-admin-password' };
const basic = `Basic ${Buffer.from(`${admin.username}:${admin.password}`).toString('base64')}`;

// Each service on a port of its own choosing (0): the listening lines say which.
const ports = { PROJECT_SERVICE_PORT: '0', CODE_HOSTING_API_PORT: '0' };
const codeHostingAdmin = {
  ADMIN_USERNAME: admin.username,
  ADMIN_PASSWORD: admin.password,
  PASSWORD_HASH_COST: '16',
};

let running: RootStart | undefined;
let homes: Awaited<ReturnType<typeof serviceHomes>> | undefined;

beforeEach(async () => {
  homes = await serviceHomes();
});

afterEach(async () => {
  running?.kill();
  running = undefined;
  await homes?.remove();
});

/** The service's log lines that are JSON objects (after whatever prefix the command puts before them). */
function jsonLines(lines: string[], service: ServiceName): Record<string, unknown>[] {
  return lines.flatMap((line) => {
    const start = line.indexOf('{"');
    if (start < 0) return [];
    try {
      const record = JSON.parse(line.slice(start)) as Record<string, unknown>;
      return record['name'] === service ? [record] : [];
    } catch {
      return [];
    }
  });
}

/** Ctrl-C, then what a person sees: the command's exit code and each service's stop line. */
async function interruptAndExpectCleanStop(start: RootStart): Promise<void> {
  start.interrupt();
  const code = await start.exited;
  const output = start.lines.join('\n');
  expect({ code, elifecycle: output.includes('ELIFECYCLE') }).toEqual({ code: 0, elifecycle: false });
  for (const service of ['project-service', 'code-hosting-api']) {
    expect({
      service,
      stopLines: start.lines.filter((line) => line.includes(`${service} stopped`)).length,
    }).toEqual({ service, stopLines: 1 });
  }
}

async function uploadStatus(baseUrl: string, bytes: number): Promise<number> {
  const api = `${baseUrl}/api/v1`;
  const json = { Authorization: basic, 'Content-Type': 'application/json' };
  await fetch(`${api}/user/repos`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ name: 'notes' }),
  });
  const issue = await fetch(`${api}/repos/${admin.username}/notes/issues`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ title: 'a file' }),
  });
  expect(issue.status).toBe(201);
  const { number } = (await issue.json()) as { number: number };
  const form = new FormData();
  form.append('attachment', new Blob([Buffer.alloc(bytes, 'a')], { type: 'text/plain' }), `f${bytes}.txt`);
  const encoded = new Response(form);
  return postedStatus(`${api}/repos/${admin.username}/notes/issues/${number}/assets`, {
    body: Buffer.from(await encoded.arrayBuffer()),
    headers: { Authorization: basic, 'Content-Type': encoded.headers.get('content-type') ?? '' },
  });
}

/**
 * The status of a POST whose answer may come before its body is sent: a refused upload (413) is
 * answered and its connection closed without reading the rest, and fetch then reports only the
 * write's EPIPE, never the answer.
 */
function postedStatus(
  url: string,
  { body, headers }: { body: Buffer; headers: Record<string, string> },
): Promise<number> {
  return new Promise((resolve, reject) => {
    let status: number | undefined;
    const request = http.request(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Length': body.length },
    });
    request.on('response', (response) => {
      status = response.statusCode;
      response.resume();
      response.on('close', () => resolve(status ?? 0));
    });
    request.on('error', (error) => (status === undefined ? reject(error) : resolve(status)));
    request.end(body);
  });
}

describe('npm start at the root', () => {
  it('refuses one DATABASE_URL for both services, naming the two variables to use', async () => {
    running = startRoot({ DATABASE_URL: 'postgresql://someone:hunter2@127.0.0.1:5432/app' });
    const code = await running.exited;
    // What the command prints, without npm's own banner (`> start`, `> node scripts/workspace.mjs start`).
    const output = running.lines.filter((line) => line.trim() !== '' && !line.startsWith('> '));
    expect(code).not.toBe(0);
    expect(output).toHaveLength(1);
    expect(output[0]).toMatch(/PROJECT_SERVICE_DATABASE_URL.*CODE_HOSTING_API_DATABASE_URL/);
    expect(output.join('\n')).not.toContain('hunter2');
  });

  it('refuses one EVENTS_STREAM for both services, naming the two variables to use', async () => {
    running = startRoot({ EVENTS_STREAM: 'SHARED' });
    const code = await running.exited;
    const output = running.lines.filter((line) => line.trim() !== '' && !line.startsWith('> '));
    expect(code).not.toBe(0);
    expect(output).toHaveLength(1);
    expect(output[0]).toMatch(/PROJECT_SERVICE_EVENTS_STREAM.*CODE_HOSTING_API_EVENTS_STREAM/);
  });

  it("ends with the refusing service's one line and a non-zero status, the other service stopped", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    running = startRoot({
      ...homes!.env,
      ...ports,
      ...codeHostingAdmin,
      PROJECT_SERVICE_DATABASE_URL: `postgresql://someone:hunter2@127.0.0.1:${port}/projects`,
    });
    expect(await running.exited).toBe(1);
    const refusal = running.lines.filter((line) => line.includes(`127.0.0.1:${port}`));
    expect(refusal).toHaveLength(1);
    expect(refusal[0]).toMatch(/^project-service +\| cannot start: .*"projects"/);
    expect(running.lines.join('\n')).not.toContain('hunter2');
    // code-hosting-api, started beside it, is stopped (or never got to listen).
    const codeHostingListened = running.lines.some((line) => line.includes('code-hosting-api listening'));
    const codeHostingStopped = running.lines.some((line) => line.includes('code-hosting-api stopped'));
    expect(codeHostingStopped || !codeHostingListened).toBe(true);
  });

  it('hands every documented variable to the services, logs JSON to a pipe and stops cleanly on SIGINT', async () => {
    running = startRoot({
      ...homes!.env,
      ...ports,
      ...codeHostingAdmin,
      METRICS_TOKEN,
      ATTACHMENT_MAX_SIZE: '1000',
    });
    const urls = await running.urls;
    await Promise.all(Object.values(urls).map((url) => waitFor200(`${url}/readyz`)));

    for (const url of Object.values(urls)) {
      expect((await fetch(`${url}/metrics`)).status).toBe(401);
      const authorized = await fetch(`${url}/metrics`, {
        headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(authorized.status).toBe(200);
    }
    expect(await uploadStatus(urls['code-hosting-api'], 2000)).toBe(413);
    expect(await uploadStatus(urls['code-hosting-api'], 500)).toBe(201);

    await fetch(`${urls['project-service']}/projects`);
    const accessLine = await running.waitForLine(
      (line) => line.includes('"url":"/projects"') && line.includes('"res":'),
    );
    const [access] = jsonLines([accessLine], 'project-service');
    expect(access).toMatchObject({ req: { url: '/projects' }, res: { statusCode: 401 } });
    await interruptAndExpectCleanStop(running);

    // Each service migrated its own database: neither holds the other's tables.
    const projectTables = await homes!.tables('project-service');
    const codeHostingTables = await homes!.tables('code-hosting-api');
    expect(projectTables).toContain('projects');
    expect(projectTables).not.toContain('accounts');
    expect(codeHostingTables).toContain('accounts');
    expect(codeHostingTables).not.toContain('projects');
  });

  it('prints one readable line per request on a terminal, and Ctrl-C stops both services with exit 0', async () => {
    running = startRoot({ ...homes!.env, ...ports, ...codeHostingAdmin }, { tty: true });
    const urls = await running.urls;
    await Promise.all(Object.values(urls).map((url) => waitFor200(`${url}/readyz`)));
    await fetch(`${urls['project-service']}/projects`);
    await fetch(`${urls['code-hosting-api']}/api/v1/user`);

    // A refused request: one line, with the reason the client was given.
    await running.waitForLine((line) => /GET \/projects 401 \d+ms: missing Authorization header$/.test(line));
    await running.waitForLine((line) => /GET \/api\/v1\/user 401 \d+ms: token is required$/.test(line));
    expect(running.lines.filter((line) => line.includes('GET /projects'))).toHaveLength(1);
    expect(running.lines.filter((line) => line.includes('GET /api/v1/user'))).toHaveLength(1);
    expect(jsonLines(running.lines, 'project-service')).toEqual([]);
    expect(jsonLines(running.lines, 'code-hosting-api')).toEqual([]);
    await interruptAndExpectCleanStop(running);
    // Nothing after the stop lines: no progress spinner's last frame (npm draws one, `⠙` or `\`).
    expect(running.lines.filter((line) => line.trim() !== '').at(-1)).toMatch(/ stopped$/);
  });

  it('leaves nothing of a spinner on the terminal when an npm script ends', async () => {
    running = startRoot({}, { tty: true, command: 'npm run sync:copies -- --check' });
    expect(await running.exited).toBe(0);
    expect(running.lines.filter((line) => line.trim() !== '').at(-1)).toMatch(
      /copies match apps\/project-service$/,
    );
  });
});

describe('a service on a terminal', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'start-production-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const production = () => ({
    NODE_ENV: 'production',
    JWT_SECRET: 'start-test-secret-of-enough-length',
    PORT: '0',
    DATA_DIR: dataDir,
  });
  const cwd = path.join(root, 'apps/project-service');

  it('logs JSON in production even on a terminal', async () => {
    // The built service (npm start built it above, and the package's own test build does).
    running = startRoot(production(), { tty: true, command: 'node dist/main.js', cwd });
    const listening = await running.waitForLine(
      (line) => line.includes('project-service listening on'),
      60_000,
    );
    expect(JSON.parse(listening.slice(listening.indexOf('{')))).toMatchObject({ level: 30 });
    expect(listening.startsWith('{')).toBe(true);
    running.interrupt();
    expect(await running.exited).toBe(0);
  });

  it('refuses LOG_FORMAT=pretty in production, in one line', async () => {
    running = startRoot({ ...production(), LOG_FORMAT: 'pretty' }, { command: 'node dist/main.js', cwd });
    expect(await running.exited).toBe(1);
    expect(running.lines.filter((line) => line.trim() !== '')).toEqual([
      'invalid configuration: LOG_FORMAT: pretty is for a terminal; production logs are JSON',
    ]);
  });
});
