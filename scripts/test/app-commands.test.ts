import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { natsServerForTests, startNatsServer, streamInfo, type NatsServer } from '@repo/testing';
import { startRoot, type RootStart } from './root-start';

// The commands that act on one service's configuration (`npm run events:tail -- <app>`, …) at the
// root, as a person runs them beside `npm start`: they take the per-service names npm start takes
// (PROJECT_SERVICE_EVENTS_STREAM, CODE_HOSTING_API_DATA_DIR, …), the app being their first argument.

let running: RootStart | undefined;

afterEach(() => {
  running?.kill();
  running = undefined;
});

/** What the command printed, without npm's own banner (`> events:tail`, `> node scripts/workspace.mjs …`). */
const printed = (start: RootStart) =>
  start.lines.filter((line) => line.trim() !== '' && !line.startsWith('> '));

/** The command's own summary lines (build chatter goes before them, on standard error). */
const outcome = (start: RootStart, first: string) =>
  start.lines.filter((line) => line.startsWith(`${first} `));

describe('the app commands at the root', () => {
  it('refuses a plain name and the per-service one set to different values, saying which to keep', async () => {
    running = startRoot(
      { EVENTS_STREAM: 'PLAIN', PROJECT_SERVICE_EVENTS_STREAM: 'PREFIXED' },
      { command: 'npm run events:tail -- project-service' },
    );
    expect(await running.exited).toBe(2);
    expect(printed(running)).toEqual([
      'npm run events:tail: EVENTS_STREAM and PROJECT_SERVICE_EVENTS_STREAM are both set, to different values; set PROJECT_SERVICE_EVENTS_STREAM only, as for npm start (unset EVENTS_STREAM)',
    ]);
  });
});

if (natsServerForTests('app commands at the root')) {
  describe('the event commands at the root, with a NATS server of their own', () => {
    let nats: NatsServer;
    let dataDir: string;

    beforeAll(async () => {
      nats = await startNatsServer();
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'app-commands-'));
    });

    afterAll(async () => {
      await nats?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('events:tail tails the stream PROJECT_SERVICE_EVENTS_STREAM / CODE_HOSTING_API_EVENTS_STREAM names', async () => {
      for (const [app, prefix] of [
        ['project-service', 'PROJECT_SERVICE_'],
        ['code-hosting-api', 'CODE_HOSTING_API_'],
      ] as const) {
        const stream = `TAIL_${prefix}ROOT`;
        running = startRoot(
          { NATS_URL: nats.url, [`${prefix}EVENTS_STREAM`]: stream },
          { command: `npm run events:tail -- ${app}` },
        );
        // No such stream yet: the tail says which one it waits for.
        const waiting = await running.waitForLine(
          (line) => line.startsWith('events:tail: no stream'),
          120_000,
        );
        expect(waiting).toMatch(new RegExp(`^events:tail: no stream ${stream} yet`));
        // Ctrl-C ends it (npm itself then ends by the signal).
        running.interrupt();
        await running.exited;
      }
    });

    it('events:snapshot and events:replay use PROJECT_SERVICE_DATA_DIR and PROJECT_SERVICE_EVENTS_STREAM', async () => {
      const env = {
        NATS_URL: nats.url,
        PROJECT_SERVICE_DATA_DIR: dataDir,
        PROJECT_SERVICE_EVENTS_STREAM: 'SNAPSHOT_ROOT',
        // What npm start's other service would get: never this command's.
        CODE_HOSTING_API_EVENTS_STREAM: 'NOT_THIS_ONE',
        LOG_LEVEL: 'warn',
      };
      running = startRoot(env, { command: 'npm run events:snapshot -- project-service' });
      expect(await running.exited).toBe(0);
      const [recorded] = outcome(running, 'recorded');
      expect(recorded).toMatch(/^recorded \d+ project\.snapshot events; published \d+ by this command$/);
      // Its database is a PGlite folder in the data dir given; its events are in the stream given.
      expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
      const snapshot = await streamInfo(nats.url, 'SNAPSHOT_ROOT');
      expect(snapshot.messages).toBeGreaterThan(0);
      expect(snapshot.messages).toBe(Number(/published (\d+)/.exec(recorded ?? '')?.[1]));

      running = startRoot(env, {
        command: 'npm run events:replay -- project-service --since 2000-01-01T00:00:00Z',
      });
      expect(await running.exited).toBe(0);
      expect(outcome(running, 'requeued')).toEqual([
        `requeued ${snapshot.messages} events; published ${snapshot.messages} by this command`,
      ]);
    });
  });
}
