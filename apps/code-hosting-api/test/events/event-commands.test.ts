import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  deleteStream,
  natsUrlForTests,
  uniqueEventNames,
  watchEvents,
  type EventWatch,
  type ReceivedEvent,
} from '@repo/testing';
import { connectPrisma, type Database } from '../../src/db/database';
import { snapshotReaders } from '../../src/events/command-config';
import type { EventsSettings } from '../../src/events/events-config';
import { runReplay } from '../../src/events/replay-command';
import { runSnapshot } from '../../src/events/snapshot-command';
import { createLogger } from '../../src/logger';
import { adminAuthorization, api, auth, createOrg, createOrgRepo, createUser } from '../actors';
import { testRootUrl, useCodeHostingApi } from '../app';
import { assetsPath, createIssue, uploaded } from '../attachment-fixtures';
import { DATA_RENDERERS } from '../../src/events/data-renderers';

// The snapshot and replay commands over code-hosting-api's database (the organizations and
// attachments made through the API), publishing to a stream of this file's own whose duplicate
// window is 1 s: past it, replayed events are stored again and show what was republished.

const natsUrl = natsUrlForTests() as string;
const names = uniqueEventNames('code hosting event commands');
const DUPLICATE_WINDOW_MS = 1000;
const settings: EventsSettings = {
  natsUrl,
  stream: {
    name: names.stream,
    subjectPrefix: names.subjectPrefix,
    replicas: 1,
    maxAgeMs: 3_600_000,
    maxBytes: -1,
    duplicateWindowMs: DUPLICATE_WINDOW_MS,
  },
  retentionMs: 3_600_000,
  publishTimeoutMs: 2000,
};

const service = useCodeHostingApi();
let database: Database;
let watch: EventWatch;
/** Each attachment's GET path, and where its events say it is (its repository and issue index). */
const attachmentPaths = new Map<string, { at: string; place: Record<string, unknown> }>();

function commandOptions() {
  return {
    settings,
    prisma: database.prisma,
    logger: createLogger('silent'),
    source: testRootUrl,
    renderers: DATA_RENDERERS,
    deadline: Date.now() + 30_000,
  };
}

/** Every organization as GET /orgs/{org} shows it to a signed-in caller, by id. */
async function currentOrganizations(): Promise<Map<string, unknown>> {
  const rows = await database.prisma.account.findMany({
    where: { type: 'organization' },
    select: { name: true },
  });
  const organizations = new Map<string, unknown>();
  for (const { name } of rows) {
    const response = await service.request
      .get(`${api}/orgs/${name}`)
      .set('Authorization', adminAuthorization)
      .expect(200);
    organizations.set(String(response.body.id), response.body);
  }
  return organizations;
}

/** Every attachment as GET …/assets/{id} shows it, with where it is, by id. */
async function currentAttachments(): Promise<Map<string, unknown>> {
  const attachments = new Map<string, unknown>();
  for (const [id, { at, place }] of attachmentPaths) {
    const response = await service.request.get(at).set('Authorization', adminAuthorization);
    if (response.status === 404) continue;
    expect(response.status).toBe(200);
    attachments.set(id, { ...(response.body as object), ...place });
  }
  return attachments;
}

/** The latest snapshot of each resource of `type`, by subject. */
function latestSnapshots(events: readonly ReceivedEvent[], type: string): Map<string, unknown> {
  const latest = new Map<string, { sequence: number; data: unknown }>();
  for (const { event } of events) {
    if (event['type'] !== type) continue;
    const sequence = Number(event['sequence']);
    const id = String(event['subject']);
    if ((latest.get(id)?.sequence ?? 0) < sequence) latest.set(id, { sequence, data: event['data'] });
  }
  return new Map([...latest].map(([id, { data }]) => [id, data]));
}

async function outboxIds(): Promise<string[]> {
  const rows = await database.prisma.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM event_outbox ORDER BY position`;
  return rows.map((row) => row.id);
}

beforeAll(async () => {
  database = connectPrisma(service.database);
  const owner = await createUser(service, 'owner');
  for (let i = 0; i < 3; i++) {
    const org = await createOrg(service, owner, { full_name: `Org ${i}`, email: `org${i}@example.com` });
    const repo = await createOrgRepo(service, owner.token, org.name);
    const index = await createIssue(service, owner.token, org.name, repo);
    const repository = await service.request
      .get(`${api}/repos/${org.name}/${repo}`)
      .set(...auth(owner.token))
      .expect(200);
    const place = {
      repository: { id: repository.body.id, name: repo, owner: org.name, full_name: `${org.name}/${repo}` },
      issue_index: index,
    };
    for (let j = 0; j < 2; j++) {
      const attachment = await uploaded(
        service,
        assetsPath(org.name, repo, index),
        owner.token,
        `file ${i}.${j}\n`,
        `f${j}.txt`,
      );
      attachmentPaths.set(String(attachment.id), {
        at: `${assetsPath(org.name, repo, index)}/${attachment.id}`,
        place,
      });
    }
  }
  const [first, second] = [...attachmentPaths.values()].map(({ at }) => at);
  await service.request
    .patch(first!)
    .set(...auth(owner.token))
    .send({ name: 'renamed.txt' })
    .expect(201);
  await service.request
    .delete(second!)
    .set(...auth(owner.token))
    .expect(204);
  const [org] = await database.prisma.account.findMany({ where: { type: 'organization' }, take: 1 });
  await service.request
    .patch(`${api}/orgs/${org!.name}`)
    .set(...auth(owner.token))
    .send({ description: 'edited' })
    .expect(200);
});

afterAll(async () => {
  await watch?.close();
  await database?.close();
  await deleteStream(natsUrl, names.stream);
});

describe('the snapshot command', () => {
  it('records organization.snapshot and attachment.snapshot events a fresh consumer rebuilds every resource from', async () => {
    const organizations = await currentOrganizations();
    const attachments = await currentAttachments();
    const outcome = await runSnapshot({
      ...commandOptions(),
      readers: snapshotReaders({ rootUrl: testRootUrl }),
      batchSize: 2,
    });
    expect(outcome).toEqual({
      recorded: { 'organization.snapshot': organizations.size, 'attachment.snapshot': attachments.size },
      published: organizations.size + attachments.size,
      pending: 0,
    });

    watch = await watchEvents(natsUrl, { stream: names.stream });
    await watch.waitFor(organizations.size + attachments.size);
    expect(latestSnapshots(watch.events, 'organization.snapshot')).toEqual(organizations);
    expect(latestSnapshots(watch.events, 'attachment.snapshot')).toEqual(attachments);
    for (const { subject, event, msgId } of watch.events) {
      const aggregate = event['type'] === 'organization.snapshot' ? 'orgs' : 'attachments';
      expect(subject).toBe(`${names.subjectPrefix}${aggregate}.${String(event['subject'])}.snapshot`);
      expect(event).toMatchObject({ specversion: '1.0', source: testRootUrl, sequence: '1', id: msgId });
    }
  });

  it('runs again: each resource gets the next sequence number, with the same state', async () => {
    const before = watch.events.length;
    const outcome = await runSnapshot({
      ...commandOptions(),
      readers: snapshotReaders({ rootUrl: testRootUrl }),
    });
    expect(outcome.pending).toBe(0);
    const again = (await watch.waitFor(before * 2)).slice(before);
    expect(again.map((e) => e.event['sequence'])).toEqual(again.map(() => '2'));
    expect(latestSnapshots(again, 'organization.snapshot')).toEqual(await currentOrganizations());
    expect(latestSnapshots(again, 'attachment.snapshot')).toEqual(await currentAttachments());
  });
});

describe('the replay command', () => {
  it('republishes the retained events from an id on, with their ids and contents', async () => {
    const ids = await outboxIds();
    await watch.waitFor(ids.length);
    // Past the stream's duplicate window, so that it stores them again.
    const [{ last } = { last: null }] = await database.prisma.$queryRaw<{ last: Date | null }[]>`
      SELECT max(published_at) AS last FROM event_outbox`;
    const forgotten = (last?.getTime() ?? 0) + DUPLICATE_WINDOW_MS + 250;
    while (Date.now() <= forgotten) await new Promise((resolve) => setTimeout(resolve, 50));

    const before = watch.events.length;
    const from = ids.length - 3;
    const outcome = await runReplay({ ...commandOptions(), start: { fromId: ids[from]! } });
    expect(outcome).toEqual({ requeued: 3, published: 3, pending: 0 });
    const replayed = (await watch.waitFor(before + 3)).slice(before);
    expect(replayed.map((e) => e.msgId)).toEqual(ids.slice(from));
    const original = new Map(watch.events.slice(0, before).map((e) => [e.msgId, e.event]));
    for (const e of replayed) expect(e.event).toEqual(original.get(e.msgId));
  });
});

describe('the commands from the command line', () => {
  it('npm run events:snapshot on a fresh database: nothing to record, exit 0', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'code-hosting-api-event-commands-'));
    try {
      const appDir = path.resolve(__dirname, '..', '..');
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        NODE_OPTIONS: '',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        NATS_URL: natsUrl,
        EVENTS_STREAM: names.stream,
        EVENTS_SUBJECT_PREFIX: names.subjectPrefix,
      };
      delete env['DATABASE_URL'];
      const child = spawn(
        path.join(appDir, 'node_modules', '.bin', 'tsx'),
        ['src/events/snapshot-command.ts'],
        {
          cwd: appDir,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect({ code, stdout, stderr }).toEqual({
        code: 0,
        stdout:
          'recorded 0 organization.snapshot, 0 attachment.snapshot events; published 0 by this command\n',
        stderr: '',
      });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
