import {
  deleteStream,
  describeXSync,
  freePort,
  natsUrlForTests,
  uniqueEventNames,
  useTestApp,
  type SyncedWrite,
  type TestApp,
} from '@repo/testing';
import type { Test } from 'supertest';
import { createTestApp, testAuthConfig, useProjectService } from '../app';
import { admin, createProject, rootUid, uniqueSlug } from '../project-fixtures';

// X-Sync on project-service's four writes (@repo/testing's suite, the same as code-hosting-api's).

const natsUrl = natsUrlForTests() as string;
const names = uniqueEventNames('x sync');
const service = useProjectService(undefined, {
  events: { natsUrl, stream: names.stream, subjectPrefix: names.subjectPrefix },
});
/** The same service with events off (NATS_URL unset). */
const eventsOff = useProjectService();
/** Events on, but nobody listens at its NATS URL. */
const UNREACHABLE_SYNC_MS = 300;
const unreachable = useTestApp(async (source) =>
  createTestApp(source, testAuthConfig, {
    events: {
      natsUrl: `nats://127.0.0.1:${await freePort()}`,
      stream: `${names.stream}_UNREACHABLE`,
      subjectPrefix: names.subjectPrefix,
      xSyncTimeoutMs: UNREACHABLE_SYNC_MS,
      publishTimeoutMs: 200,
    },
  }),
);

afterAll(async () => {
  await deleteStream(natsUrl, names.stream);
});

const subjectOf = (uid: string, action: string) => `${names.subjectPrefix}projects.${uid}.${action}`;
const requestIdOf = (write: string) => `${write}-${uniqueSlug('req')}`;

/** Stored: GET shows what the write answered (a deleted project is gone). */
async function expectShown(app: TestApp, path: string, response: { body: unknown }, status = 200) {
  const stored = await app.request.get(path).set('Authorization', admin());
  expect(stored.status).toBe(status);
  // A create answers ProjectFull, a superset of the base.
  if (status === 200) expect(response.body).toMatchObject(stored.body as object);
}

/** A write of one existing project, made first under the root. */
function onProject(
  status: number,
  action: string,
  request: (app: TestApp, uid: string, slug: string, root: string) => Test,
  shownAt: (uid: string) => { path: string; status?: number },
): SyncedWrite {
  return {
    status,
    async send(app, withSync) {
      const root = await rootUid(app);
      const project = await createProject(app, { parent_uid: root });
      const response = await withSync(
        request(app, project.uid, project.slug, root)
          .set('Authorization', admin())
          .set('X-Request-Id', requestIdOf(action)),
      );
      const shown = shownAt(project.uid);
      return {
        response,
        subject: subjectOf(project.uid, action),
        expectStored: () => expectShown(app, shown.path, response, shown.status),
      };
    },
  };
}

describeXSync({
  natsUrl,
  stream: names.stream,
  service,
  eventsOff,
  unreachable,
  unreachableSyncMs: UNREACHABLE_SYNC_MS,
  writes: {
    create: {
      status: 201,
      async send(app, withSync) {
        const root = await rootUid(app);
        const response = await withSync(
          app.request
            .post('/projects')
            .set('Authorization', admin())
            .set('X-Request-Id', requestIdOf('create'))
            .send({ slug: uniqueSlug('sync'), name: 'Synced', description: '', parent_uid: root }),
        );
        const uid = String((response.body as { uid?: string }).uid);
        return {
          response,
          subject: subjectOf(uid, 'created'),
          expectStored: () => expectShown(app, `/projects/${uid}`, response),
        };
      },
    },
    'update base': onProject(
      200,
      'updated',
      (app, uid, slug, root) =>
        app.request
          .put(`/projects/${uid}`)
          .send({ slug, name: 'Renamed', description: 'x', parent_uid: root }),
      (uid) => ({ path: `/projects/${uid}` }),
    ),
    'update settings': onProject(
      200,
      'settings_updated',
      (app, uid) =>
        app.request
          .put(`/projects/${uid}/settings`)
          .send({ mission_statement: 'synced', writers: [{ username: 'w' }] }),
      (uid) => ({ path: `/projects/${uid}/settings` }),
    ),
    delete: onProject(
      204,
      'deleted',
      (app, uid) => app.request.delete(`/projects/${uid}`),
      (uid) => ({ path: `/projects/${uid}`, status: 404 }),
    ),
  },
  async failing(app) {
    const root = await rootUid(app);
    const project = await createProject(app, { parent_uid: root });
    const failures: [number, Test][] = [
      [
        409,
        app.request
          .post('/projects')
          .send({ slug: project.slug, name: 'dup', description: '', parent_uid: root }),
      ],
      [
        412,
        app.request
          .put(`/projects/${project.uid}`)
          .set('If-Match', '"b7"')
          .send({ slug: project.slug, name: 'stale', description: '', parent_uid: root }),
      ],
      [400, app.request.put(`/projects/${project.uid}/settings`).send({ writers: 'not a list' })],
      [404, app.request.delete('/projects/00000000-0000-4000-8000-000000000000')],
      [400, app.request.delete(`/projects/${root}`)],
    ];
    return failures.map(([status, request]) => ({ status, request: request.set('Authorization', admin()) }));
  },
  invalid: {
    status: 400,
    body: { code: '400', message: expect.stringContaining('X-Sync') },
  },
});
