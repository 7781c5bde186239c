import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { deleteStream, natsUrlForTests, uniqueEventNames, watchEvents } from '@repo/testing';
import { connectPrisma, openDatabaseAt } from '../../src/db/database';
import { snapshotReaders } from '../../src/events/command-config';
import { runSnapshot } from '../../src/events/snapshot-command';
import { eventLine, tailEvents } from '../../src/events/tail-command';
import { createLogger } from '../../src/logger';
import { TEST_EVENTS_SOURCE, testEventsSettings } from '../app';
import { DATA_RENDERERS } from '../../src/events/data-renderers';

// The commands as `npm run events:snapshot`, `events:replay` and `events:tail` run them (tsx, the
// environment's configuration), on a PGlite folder of their own and a stream of this file's own.

const natsUrl = natsUrlForTests() as string;
const names = uniqueEventNames('event commands cli');
const appDir = path.resolve(__dirname, '..', '..');
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'project-service-event-commands-'));
});

afterAll(async () => {
  await deleteStream(natsUrl, names.stream);
  await rm(dataDir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts `src/events/<command>.ts` through tsx with the service's variables (no DATABASE_URL: PGlite in dataDir). */
function command(file: string, args: string[], env: Record<string, string | undefined>) {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_OPTIONS: '',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    NATS_URL: natsUrl,
    EVENTS_STREAM: names.stream,
    EVENTS_SUBJECT_PREFIX: names.subjectPrefix,
    ...env,
  };
  delete childEnv['DATABASE_URL'];
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete childEnv[name];
  const child = spawn(
    path.join(appDir, 'node_modules', '.bin', 'tsx'),
    [path.join(appDir, 'src', 'events', file), ...args],
    { cwd: appDir, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const run: Run = { code: null, stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
  const exited = new Promise<Run>((resolve) =>
    child.on('close', (code) => {
      run.code = code;
      resolve(run);
    }),
  );
  return { child, run, exited };
}

/** Resolves once `condition` holds (checked every 50 ms), or fails after `timeoutMs`. */
async function until(condition: () => boolean, what: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the event commands from the command line', () => {
  it('events:snapshot records and publishes a snapshot of every project, and says how many', async () => {
    const run = await command('snapshot-command.ts', [], {}).exited;
    expect(run).toEqual({
      code: 0,
      stdout: 'recorded 1 project.snapshot events; published 1 by this command\n',
      stderr: '',
    });
    const watch = await watchEvents(natsUrl, { stream: names.stream });
    try {
      const [received] = await watch.waitFor(1);
      // A fresh folder holds the root project alone.
      expect(received?.event).toMatchObject({
        type: 'project.snapshot',
        sequence: '1',
        data: { slug: 'root' },
      });
      // No parent: left out, as the API answers it.
      expect(received?.event['data']).not.toHaveProperty('parent_uid');
      expect(received?.subject).toBe(
        `${names.subjectPrefix}projects.${String(received?.event['subject'])}.snapshot`,
      );
    } finally {
      await watch.close();
    }
  }, 120_000);

  it('events:replay without NATS_URL exits 2 with one line saying why', async () => {
    const run = await command('replay-command.ts', ['--since', '2026-01-01T00:00:00Z'], {
      NATS_URL: undefined,
    }).exited;
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^events:replay: change events are off \(NATS_URL is unset\)[^\n]*\n$/);
  }, 60_000);

  it('events:replay with neither --since nor --from-id exits 2 with its usage', async () => {
    const run = await command('replay-command.ts', ['--since', 'yesterday'], {}).exited;
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--since yesterday: not an RFC 3339 time\nusage: events:replay/);
  }, 60_000);

  it('events:tail --all prints the stream from its start, one line per event, and stops on Ctrl-C', async () => {
    const tail = command('tail-command.ts', ['--all'], {});
    await until(
      () => tail.run.stdout.includes('\n'),
      () => `a line from events:tail (stdout ${tail.run.stdout}, stderr ${tail.run.stderr})`,
    );
    const [line] = tail.run.stdout.split('\n');
    expect(line).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z  ${names.subjectPrefix.replace('.', '\\.')}projects\\.([0-9a-f-]+)\\.snapshot  project\\.snapshot  #1  -  \\{.*"uid":"\\1"`,
      ),
    );
    tail.child.kill('SIGINT');
    const run = await tail.exited;
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(`events:tail: every event of stream ${names.stream} (Ctrl-C to stop)\n`);
  }, 120_000);
});

describe('tailEvents', () => {
  it('follows new events only, unless asked for all; --json prints the CloudEvent', async () => {
    const settings = testEventsSettings({
      natsUrl,
      stream: names.stream,
      subjectPrefix: names.subjectPrefix,
    });
    const controller = new AbortController();
    const lines: string[] = [];
    let following = false;
    const fromNow = tailEvents({
      settings,
      json: true,
      write: (line) => lines.push(line),
      ready: () => (following = true),
      signal: controller.signal,
    });
    const allLines: string[] = [];
    const all = tailEvents({
      settings,
      all: true,
      write: (line) => allLines.push(line),
      signal: controller.signal,
    });
    await until(
      () => following && allLines.length === 1,
      () => 'the tails to start and the existing event',
    );
    // One more event, from the command's folder.
    const location = await openDatabaseAt({ kind: 'pglite', dataDir });
    const database = connectPrisma(location.source, { onClose: location.close });
    try {
      await runSnapshot({
        settings,
        prisma: database.prisma,
        logger: createLogger('silent'),
        source: TEST_EVENTS_SOURCE,
        renderers: DATA_RENDERERS,
        deadline: Date.now() + 30_000,
        readers: snapshotReaders(),
      });
    } finally {
      await database.close();
    }
    await until(
      () => lines.length === 1 && allLines.length === 2,
      () => `the new event (${lines.length} new, ${allLines.length} all)`,
    );
    const event = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(event).toMatchObject({ type: 'project.snapshot', sequence: '2', specversion: '1.0' });
    expect(allLines[1]).toBe(
      eventLine(`${names.subjectPrefix}projects.${String(event['subject'])}.snapshot`, lines[0]!),
    );
    controller.abort();
    await Promise.all([fromNow, all]);
  }, 120_000);
});
