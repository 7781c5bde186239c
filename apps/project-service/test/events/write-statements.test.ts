import { deleteStream, natsUrlForTests, uniqueEventNames, watchEvents, type EventWatch } from '@repo/testing';
import { currentRequestContext } from '../../src/request-context';
import { bearer, useProjectService } from '../app';
import { createProject, rootUid, uniqueSlug } from '../project-fixtures';
import { waitForEventsOf } from './event-assertions';

// With events on, each common write is one round trip to the database after the domain's read of
// the caller's rights (with the project, for a base write and a delete: the statement of a GET):
// the change, the project after (the answer) and its event in the outbox are one statement, its
// own transaction (no BEGIN … COMMIT around it; src/db/project-recorded-writes.ts).

const natsUrl = natsUrlForTests() as string;
const names = uniqueEventNames('write statements');
/** Every statement, with the id of the request it ran for (none: the relay's, or the test's own). */
const statements: { sql: string; requestId: string | undefined }[] = [];
const service = useProjectService(undefined, {
  events: { natsUrl, stream: names.stream, subjectPrefix: names.subjectPrefix },
  onQuery: (sql) => statements.push({ sql, requestId: currentRequestContext()?.requestId }),
});

let requests = 0;

/** The statements one request ran (the relay's, which may run beside it, are not the request's), and its response. */
async function counted<R extends { status: number }>(run: (requestId: string) => PromiseLike<R>) {
  requests += 1;
  const requestId = `write-statements-${requests}`;
  statements.length = 0;
  const response = await run(requestId);
  return {
    response,
    sql: statements.filter((statement) => statement.requestId === requestId).map(({ sql }) => sql),
  };
}

const WRITER = 'ws-wanda';
let watch: EventWatch;
let parent: string;

beforeAll(async () => {
  watch = await watchEvents(natsUrl, { stream: names.stream });
  parent = (
    await createProject(service, { parent_uid: await rootUid(service), writers: [{ username: WRITER }] })
  ).uid;
});

afterAll(async () => {
  await watch?.close();
  await deleteStream(natsUrl, names.stream);
});

const ACCESS_CHECK = expect.stringMatching(/^\/\* prepared: project_membership \*\/\s*WITH RECURSIVE/);
const READ = expect.stringMatching(/^\/\* prepared: project_read \*\/\s*WITH RECURSIVE/);
/** A write that records its event, prepared once per connection on PostgreSQL (src/db/prepared-statements.ts). */
const RECORDING = (name: string, write: string) =>
  expect.stringMatching(
    new RegExp(
      `^/\\* prepared: ${name} \\*/\\s*WITH[^]*${write}[^]*outbox_sequence AS \\(\\s*INSERT INTO event_sequences`,
    ),
  );

it('POST, PUT base, PUT settings and DELETE: the rights, then one statement with the change and the event', async () => {
  const created = await counted((requestId) =>
    service.request
      .post('/projects')
      .set('X-Request-Id', requestId)
      .set('Authorization', bearer(WRITER))
      .send({
        slug: uniqueSlug('ws'),
        name: 'Counted',
        description: 'd',
        parent_uid: parent,
        writers: [{ username: WRITER }],
      }),
  );
  expect(created.response.status).toBe(201);
  expect(created.sql).toEqual([ACCESS_CHECK, RECORDING('project_insert_recording', 'inserted AS')]);
  const uid = (created.response.body as { uid: string }).uid;

  const base = await service.request.get(`/projects/${uid}`).set('Authorization', bearer(WRITER)).expect(200);
  const updated = await counted((requestId) =>
    service.request
      .put(`/projects/${uid}`)
      .set('X-Request-Id', requestId)
      .set('If-Match', String(base.headers['etag']))
      .set('Authorization', bearer(WRITER))
      .send({ ...base.body, description: 'counted' }),
  );
  expect(updated.response.status).toBe(200);
  expect(updated.sql).toEqual([
    READ,
    RECORDING('project_base_update_recording', 'p AS \\(\\s*UPDATE projects'),
  ]);

  for (const ifMatch of [true, false]) {
    const settings = await service.request
      .get(`/projects/${uid}/settings`)
      .set('Authorization', bearer(WRITER))
      .expect(200);
    const written = await counted((requestId) => {
      const request = service.request
        .put(`/projects/${uid}/settings`)
        .set('X-Request-Id', requestId)
        .set('Authorization', bearer(WRITER));
      if (ifMatch) request.set('If-Match', String(settings.headers['etag']));
      return request.send({
        writers: [{ username: WRITER }, { username: `ws-${ifMatch}` }],
        mission_statement: 'counted',
      });
    });
    expect(written.response.status).toBe(200);
    expect(written.sql).toEqual([
      ACCESS_CHECK,
      RECORDING('project_settings_write_recording', 'before AS[^]*updated AS \\(\\s*UPDATE projects'),
    ]);
  }

  const current = await service.request
    .get(`/projects/${uid}`)
    .set('Authorization', bearer(WRITER))
    .expect(200);
  // Refused writes record no event (the published list below has none of theirs): a stranger's base
  // write and delete, refused before any write, and the writer's base write with a stale If-Match.
  await service.request
    .put(`/projects/${uid}`)
    .set('Authorization', bearer('ws-stranger'))
    .send({ ...current.body, description: 'refused' })
    .expect(404);
  await service.request.delete(`/projects/${uid}`).set('Authorization', bearer('ws-stranger')).expect(404);
  await service.request
    .put(`/projects/${uid}`)
    .set('Authorization', bearer(WRITER))
    .set('If-Match', '"b1"')
    .send({ ...current.body, description: 'stale' })
    .expect(412);
  const deleted = await counted((requestId) =>
    service.request
      .delete(`/projects/${uid}`)
      .set('X-Request-Id', requestId)
      .set('If-Match', String(current.headers['etag']))
      .set('Authorization', bearer(WRITER)),
  );
  expect(deleted.response.status).toBe(204);
  expect(deleted.sql).toEqual([
    READ,
    RECORDING('project_delete_recording', 'p AS \\(\\s*DELETE FROM projects'),
  ]);

  // And each write's event is published, in order.
  const events = await waitForEventsOf(watch, uid, 5);
  expect(events.map((received) => received.event['type'])).toEqual([
    'project.created',
    'project.updated',
    'project.settings_updated',
    'project.settings_updated',
    'project.deleted',
  ]);
  expect(events.map((received) => received.event['sequence'])).toEqual(['1', '2', '3', '4', '5']);
});
