import {
  describeXSync,
  freePort,
  useTestApp,
  type SentWrite,
  type SyncedWrite,
  type TestApp,
} from '@repo/testing';
import type { Response, Test } from 'supertest';
import { api, auth, createOrg, createOrgRepo, createUser, uniqueName, type Actor } from '../actors';
import { createTestApp, useCodeHostingApi } from '../app';
import { assetsPath, createIssue, exeBytes, upload } from '../attachment-fixtures';
import { errorBody } from '../organization-fixtures';
import { deleteStream, eventTestSettings, natsForEventTests } from './event-stream';

// X-Sync on every code-hosting-api write that records a change event (@repo/testing's suite, the
// same as project-service's): organizations created, edited, renamed and deleted; attachments
// uploaded, renamed and deleted; a repository deleted (its attachments' events).

const natsUrl = natsForEventTests('code-hosting-api x-sync.test.ts', it);

if (natsUrl !== undefined) {
  const settings = eventTestSettings(natsUrl, 'ch-x-sync');
  const service = useCodeHostingApi({}, { events: settings });
  /** The same service with events off (NATS_URL unset). */
  const eventsOff = useCodeHostingApi();
  /** Events on, but nobody listens at its NATS URL. */
  const UNREACHABLE_SYNC_MS = 300;
  const unreachable = useTestApp(async (source) => {
    const events = {
      ...eventTestSettings(`nats://127.0.0.1:${await freePort()}`, 'ch-x-sync-unreachable'),
      publishTimeoutMs: 200,
    };
    const instance = await createTestApp(source, {
      events,
      xSyncTimeoutMs: UNREACHABLE_SYNC_MS,
      natsUnreachable: true,
    });
    return { app: instance.app, close: instance.close };
  });

  afterAll(async () => {
    await deleteStream(natsUrl, settings.stream.name);
  });

  const subjectOf = (aggregate: string, id: unknown, action: string) =>
    `${settings.stream.subjectPrefix}${aggregate}.${String(id)}.${action}`;

  /** Each app's owner of the organizations the writes make (a user: making one records no event). */
  const owners = new Map<TestApp, Promise<Actor>>();
  const ownerOf = (app: TestApp) => {
    if (!owners.has(app)) owners.set(app, createUser(app, 'owner'));
    return owners.get(app)!;
  };

  /** What GET `path` shows after the write: `response`'s body, or nothing (404). */
  async function expectShown(app: TestApp, owner: Actor, path: string, response: Response | undefined) {
    const shown = await app.request.get(path).set(...auth(owner.token));
    if (response === undefined) expect(shown.status).toBe(404);
    else
      expect({ status: shown.status, body: shown.body as unknown }).toEqual({
        status: 200,
        body: response.body,
      });
  }

  /** An organization of the app's owner, with a repository, an issue and one attachment on it. */
  async function attachmentFixture(app: TestApp) {
    const owner = await ownerOf(app);
    const org = (await createOrg(app, owner)).name;
    const repo = await createOrgRepo(app, owner.token, org);
    const assets = assetsPath(org, repo, await createIssue(app, owner.token, org, repo));
    const created = await upload(app, assets, owner.token, Buffer.from('synced\n'), 'synced.txt').expect(201);
    return { owner, org, repo, assets, id: created.body.id as number };
  }

  /** A write on an organization the app's owner makes first. */
  function onOrganization(
    status: number,
    action: string,
    request: (app: TestApp, org: string) => Test,
    shownAt: (org: string, response: Response) => { path: string; shows?: Response },
  ): SyncedWrite {
    return {
      status,
      async send(app, withSync): Promise<SentWrite> {
        const owner = await ownerOf(app);
        const org = await createOrg(app, owner);
        const response = await withSync(request(app, org.name).set(...auth(owner.token)));
        const shown = shownAt(org.name, response);
        return {
          response,
          subject: subjectOf('orgs', org.id, action),
          expectStored: () => expectShown(app, owner, shown.path, shown.shows),
        };
      },
    };
  }

  const writes: Record<string, SyncedWrite> = {
    'create organization': {
      status: 201,
      async send(app, withSync) {
        const owner = await ownerOf(app);
        const response = await withSync(
          app.request
            .post(`${api}/orgs`)
            .set(...auth(owner.token))
            .send({ username: uniqueName('synced') }),
        );
        const { id, name } = response.body as { id: number; name: string };
        return {
          response,
          subject: subjectOf('orgs', id, 'created'),
          expectStored: () => expectShown(app, owner, `${api}/orgs/${name}`, response),
        };
      },
    },
    'edit organization': onOrganization(
      200,
      'updated',
      (app, org) => app.request.patch(`${api}/orgs/${org}`).send({ description: 'synced' }),
      (org, response) => ({ path: `${api}/orgs/${org}`, shows: response }),
    ),
    'rename organization': onOrganization(
      204,
      'renamed',
      (app, org) => app.request.post(`${api}/orgs/${org}/rename`).send({ new_name: `${org}-renamed` }),
      (org) => ({ path: `${api}/orgs/${org}` }),
    ),
    'delete organization': onOrganization(
      204,
      'deleted',
      (app, org) => app.request.delete(`${api}/orgs/${org}`),
      (org) => ({ path: `${api}/orgs/${org}` }),
    ),
    'upload attachment': {
      status: 201,
      async send(app, withSync) {
        const { owner, assets } = await attachmentFixture(app);
        const response = await withSync(upload(app, assets, owner.token, Buffer.from('more\n'), 'more.txt'));
        const id = (response.body as { id: number }).id;
        return {
          response,
          subject: subjectOf('attachments', id, 'created'),
          expectStored: () => expectShown(app, owner, `${assets}/${id}`, response),
        };
      },
    },
    'rename attachment': {
      status: 201,
      async send(app, withSync) {
        const { owner, assets, id } = await attachmentFixture(app);
        const response = await withSync(
          app.request
            .patch(`${assets}/${id}`)
            .set(...auth(owner.token))
            .send({ name: 'renamed.txt' }),
        );
        return {
          response,
          subject: subjectOf('attachments', id, 'renamed'),
          expectStored: () => expectShown(app, owner, `${assets}/${id}`, response),
        };
      },
    },
    'delete attachment': {
      status: 204,
      async send(app, withSync) {
        const { owner, assets, id } = await attachmentFixture(app);
        const response = await withSync(app.request.delete(`${assets}/${id}`).set(...auth(owner.token)));
        return {
          response,
          subject: subjectOf('attachments', id, 'deleted'),
          expectStored: () => expectShown(app, owner, `${assets}/${id}`, undefined),
        };
      },
    },
    'delete repository': {
      status: 204,
      async send(app, withSync) {
        const { owner, org, repo, id } = await attachmentFixture(app);
        const response = await withSync(
          app.request.delete(`${api}/repos/${org}/${repo}`).set(...auth(owner.token)),
        );
        return {
          response,
          // Its attachment's event.
          subject: subjectOf('attachments', id, 'deleted'),
          expectStored: () => expectShown(app, owner, `${api}/repos/${org}/${repo}`, undefined),
        };
      },
    },
  };

  describeXSync({
    natsUrl,
    stream: settings.stream.name,
    service,
    eventsOff,
    unreachable,
    unreachableSyncMs: UNREACHABLE_SYNC_MS,
    writes,
    async failing(app) {
      const { owner, org, assets, id } = await attachmentFixture(app);
      const other = (await createOrg(app, owner)).name;
      const stranger = await createUser(app, 'stranger');
      const as = (token: string) => (request: Test) => request.set(...auth(token));
      const byOwner = as(owner.token);
      return [
        // The name taken, no such organization, one that owns a repository.
        { status: 422, request: byOwner(app.request.post(`${api}/orgs`).send({ username: org })) },
        {
          status: 404,
          request: byOwner(app.request.patch(`${api}/orgs/${org}-none`).send({ description: 'x' })),
        },
        {
          status: 422,
          request: byOwner(app.request.post(`${api}/orgs/${org}/rename`).send({ new_name: other })),
        },
        { status: 409, request: byOwner(app.request.delete(`${api}/orgs/${org}`)) },
        // A forbidden type, a forbidden new name, no such attachment, no write permission.
        { status: 422, request: upload(app, assets, owner.token, exeBytes, 'a.exe') },
        { status: 422, request: byOwner(app.request.patch(`${assets}/${id}`).send({ name: 'x.exe' })) },
        { status: 404, request: byOwner(app.request.delete(`${assets}/${id + 1000}`)) },
        { status: 403, request: as(stranger.token)(app.request.delete(`${assets}/${id}`)) },
      ];
    },
    // As every invalid request in Gitea's API: 422 with its error body, naming the header.
    invalid: { status: 422, body: errorBody('X-Sync: must be one of "true", "false"') },
  });
}
