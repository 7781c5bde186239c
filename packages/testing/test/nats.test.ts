import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jetstream, jetstreamManager, StorageType } from '@nats-io/jetstream';
import { connect, headers } from '@nats-io/transport-node';
import {
  announceSkippedEventTests,
  deleteStream,
  natsServerForTests,
  startNatsServer,
  streamInfo,
  uniqueEventNames,
  watchEvents,
  type NatsServer,
} from '../src';

const natsServerInstalled = natsServerForTests('@repo/testing nats.test.ts: NATS helpers');

/** The stream a service would create, made here by hand: these tests are of the watcher, not of a service. */
async function addStream(url: string, stream: string, subjects: string[]): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: stream, subjects, storage: StorageType.File });
  } finally {
    await nc.close();
  }
}

/** Publishes through JetStream as a relay would: CloudEvents content type, the id as Nats-Msg-Id. */
async function publish(
  url: string,
  subject: string,
  id: string,
): Promise<{ seq: number; duplicate: boolean }> {
  const nc = await connect({ servers: url });
  try {
    const h = headers();
    h.set('Content-Type', 'application/cloudevents+json');
    const body = JSON.stringify({ specversion: '1.0', id, type: 'project.created', subject: id });
    return await jetstream(nc).publish(subject, body, { msgID: id, headers: h });
  } finally {
    await nc.close();
  }
}

describe('uniqueEventNames', () => {
  it('gives each call a stream name JetStream accepts and a subject prefix of its own', () => {
    const a = uniqueEventNames('project events: x-sync');
    const b = uniqueEventNames('project events: x-sync');
    expect(a.stream).toMatch(/^T_PROJECT_EVENTS_X_SYNC_[0-9A-F]{8}$/);
    expect(a.subjectPrefix).toMatch(/^t[0-9a-f]{8}\.$/);
    expect(b.stream).not.toBe(a.stream);
    expect(b.subjectPrefix).not.toBe(a.subjectPrefix);
  });
});

describe('announceSkippedEventTests', () => {
  // What the helper writes to stderr, captured instead of printed.
  const written: string[] = [];
  let write: jest.SpiedFunction<typeof process.stderr.write>;
  beforeEach(() => {
    written.length = 0;
    write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
  });
  afterEach(() => write.mockRestore());

  it('says in one line that the event tests did not run when NATS_URL is unset', () => {
    announceSkippedEventTests({});
    expect(written).toEqual([
      "event tests (test/events/) not run: NATS_URL is unset (.ci/run runs them in steps of their own against the machine's NATS, nats://127.0.0.1:4222)\n",
    ]);
  });

  it('says nothing when NATS_URL is set, and fails the run when NATS_TESTS=required and it is not', () => {
    announceSkippedEventTests({ NATS_URL: 'nats://127.0.0.1:4222' });
    expect(written).toEqual([]);
    expect(() => announceSkippedEventTests({ NATS_TESTS: 'required' })).toThrow(
      /NATS_URL is unset.*NATS_TESTS=required/,
    );
  });
});

if (natsServerInstalled)
  describe('a nats-server of the test’s own', () => {
    let server: NatsServer;
    beforeAll(async () => {
      server = await startNatsServer();
    });
    afterAll(async () => {
      await server?.close();
    });

    it('close() removes the store directory it created, and only that one', async () => {
      const own = await startNatsServer();
      await own.close();
      expect(existsSync(own.storeDir)).toBe(false);

      const storeDir = await mkdtemp(path.join(tmpdir(), 'nats-given-'));
      try {
        const given = await startNatsServer({ storeDir });
        expect(given.storeDir).toBe(storeDir);
        await given.close();
        expect(existsSync(storeDir)).toBe(true);
      } finally {
        await rm(storeDir, { recursive: true, force: true });
      }
    });

    it('startNatsServer says why when the server dies before accepting connections', async () => {
      const storeFile = path.join(await mkdtemp(path.join(tmpdir(), 'nats-bad-')), 'not-a-directory');
      await writeFile(storeFile, '');
      await expect(startNatsServer({ storeDir: storeFile })).rejects.toThrow(
        /exited .*before accepting connections/,
      );
      await rm(path.dirname(storeFile), { recursive: true, force: true });
    });

    it('watchEvents waits for the stream, then sees a message published twice with one msgID once', async () => {
      const { stream, subjectPrefix } = uniqueEventNames('dedupe');
      const watching = watchEvents(server.url, { stream });
      await addStream(server.url, stream, [`${subjectPrefix}projects.>`]);
      const watch = await watching;
      try {
        const subject = `${subjectPrefix}projects.p1.created`;
        expect(await publish(server.url, subject, 'id-1')).toEqual(
          expect.objectContaining({ duplicate: false }),
        );
        expect(await publish(server.url, subject, 'id-1')).toEqual(
          expect.objectContaining({ duplicate: true }),
        );
        await publish(server.url, subject, 'id-2');

        await watch.waitFor(2);
        const events = await watch.settled();
        expect(events.map((e) => [e.streamSequence, e.msgId])).toEqual([
          [1, 'id-1'],
          [2, 'id-2'],
        ]);
        expect(events[0]).toEqual(
          expect.objectContaining({
            subject,
            contentType: 'application/cloudevents+json',
            event: expect.objectContaining({ specversion: '1.0', id: 'id-1', type: 'project.created' }),
          }),
        );
        await expect(watch.waitFor(3, 200)).rejects.toThrow(
          /waited 200 ms for 3 events; 2 arrived:\n {2}#1 .*id=id-1/,
        );

        expect(await streamInfo(server.url, stream)).toEqual(
          expect.objectContaining({
            messages: 2,
            lastSequence: 2,
            subjects: [`${subjectPrefix}projects.>`],
            duplicateWindowMs: 120_000,
          }),
        );
      } finally {
        await watch.close();
      }
      expect(await deleteStream(server.url, stream)).toBe(true);
      expect(await deleteStream(server.url, stream)).toBe(false);
    });

    it('watchEvents with a filter subject sees only the messages on it', async () => {
      const { stream, subjectPrefix } = uniqueEventNames('filter');
      await addStream(server.url, stream, [`${subjectPrefix}orgs.>`, `${subjectPrefix}attachments.>`]);
      const watch = await watchEvents(server.url, { stream, filterSubject: `${subjectPrefix}attachments.>` });
      try {
        await publish(server.url, `${subjectPrefix}orgs.1.created`, 'o1');
        await publish(server.url, `${subjectPrefix}attachments.7.created`, 'a7');
        const events = await watch.waitFor((all) => all.some((e) => e.msgId === 'a7'));
        expect(events.map((e) => e.msgId)).toEqual(['a7']);
      } finally {
        await watch.close();
      }
    });

    it('keeps its streams across kill and start on the same port, and a watch goes on across the restart', async () => {
      const { stream, subjectPrefix } = uniqueEventNames('restart');
      await addStream(server.url, stream, [`${subjectPrefix}projects.>`]);
      await publish(server.url, `${subjectPrefix}projects.p1.created`, 'before');
      const watch = await watchEvents(server.url, { stream });
      try {
        await watch.waitFor(1);
        const { url, port } = server;

        await server.kill();
        await expect(connect({ servers: url, reconnect: false })).rejects.toThrow();
        await server.start();
        expect([server.url, server.port]).toEqual([url, port]);
        expect(await streamInfo(server.url, stream)).toEqual(expect.objectContaining({ messages: 1 }));

        await publish(server.url, `${subjectPrefix}projects.p1.updated`, 'after-kill');
        await server.stop();
        await server.start();
        await publish(server.url, `${subjectPrefix}projects.p1.deleted`, 'after-stop');

        await watch.waitFor(3);
        const events = await watch.settled();
        expect(events.map((e) => [e.streamSequence, e.msgId])).toEqual([
          [1, 'before'],
          [2, 'after-kill'],
          [3, 'after-stop'],
        ]);
      } finally {
        await watch.close();
      }
    });
  });
