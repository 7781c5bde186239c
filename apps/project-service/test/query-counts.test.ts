import { bearer, useProjectService } from './app';
import { createProject, rootUid } from './project-fixtures';

// The hot requests cost a fixed, small number of database statements (round trips). A single
// GET is one: the caller's rights along the ancestor chain and the row (with the members, for
// the settings) are read by one statement, whatever the answer (200, 304, 403 or 404).

const statements: string[] = [];
const service = useProjectService(undefined, { onQuery: (sql) => statements.push(sql) });

/** The statements one request runs, and its response. */
async function counted<R extends { status: number }>(run: () => PromiseLike<R>) {
  statements.length = 0;
  const response = await run();
  return { count: statements.length, sql: [...statements], response };
}

let root: string;
let org: string;
let child: string;
beforeAll(async () => {
  root = await rootUid(service);
  org = (
    await createProject(service, {
      parent_uid: root,
      writers: [{ username: 'qc-wanda' }],
      auditors: [{ username: 'qc-otto' }],
    })
  ).uid;
  child = (
    await createProject(service, {
      parent_uid: org,
      public: true,
      meeting_coordinators: [{ username: 'qc-mia' }],
    })
  ).uid;
});

/** A statement marked to be prepared under `name` (src/db/prepared-statements.ts) that begins with `start`. */
function named(name: string, start: string): RegExp {
  return new RegExp(`^/\\* prepared: ${name} \\*/\\s*${start}`);
}

describe('a single-resource GET is one database statement', () => {
  const cases = [
    ['base, inherited writer', () => `/projects/${child}`, 'qc-wanda', 200],
    ['base, public to a stranger', () => `/projects/${child}`, 'qc-sam', 200],
    ['base, private to a stranger', () => `/projects/${org}`, 'qc-sam', 404],
    ['base, no such project', () => '/projects/00000000-0000-4000-8000-000000000000', 'qc-wanda', 404],
    ['settings, inherited auditor', () => `/projects/${child}/settings`, 'qc-otto', 200],
    ['settings, public to a stranger', () => `/projects/${child}/settings`, 'qc-sam', 403],
    ['settings, private to a stranger', () => `/projects/${org}/settings`, 'qc-sam', 404],
  ] as const;

  it.each(cases)('%s', async (_name, path, principal, status) => {
    const { count, sql, response } = await counted(() =>
      service.request.get(path()).set('Authorization', bearer(principal)),
    );
    expect(response.status).toBe(status);
    // A named statement (prepared once per connection on PostgreSQL): src/db/prepared-statements.ts.
    const read = path().endsWith('/settings') ? 'project_read_with_members' : 'project_read';
    expect({ count, sql }).toEqual({ count: 1, sql: [expect.stringMatching(named(read, 'WITH RECURSIVE'))] });
  });

  it('for XML and gob as for JSON, and for a 304', async () => {
    for (const accept of ['application/xml', 'application/gob']) {
      const { count, response } = await counted(() =>
        service.request
          .get(`/projects/${child}/settings`)
          .set('Accept', accept)
          .set('Authorization', bearer('qc-otto')),
      );
      expect({ status: response.status, count }).toEqual({ status: 200, count: 1 });
    }
    const first = await service.request.get(`/projects/${child}`).set('Authorization', bearer('qc-wanda'));
    const { count, response } = await counted(() =>
      service.request
        .get(`/projects/${child}`)
        .set('If-None-Match', String(first.headers['etag']))
        .set('Authorization', bearer('qc-wanda')),
    );
    expect({ status: response.status, count }).toEqual({ status: 304, count: 1 });
  });

  it('still shows the settings with their member lists in order', async () => {
    const response = await service.request
      .get(`/projects/${org}/settings`)
      .set('Authorization', bearer('qc-wanda'))
      .expect(200);
    expect(response.body).toMatchObject({
      writers: [{ username: 'qc-wanda' }],
      auditors: [{ username: 'qc-otto' }],
    });
    expect(response.body.writers[0]).toEqual({ username: 'qc-wanda' });
    expect(response.body).not.toHaveProperty('meeting_coordinators');
  });
});

/** A named statement of src/db, by its name (prepared-statements.ts marks its text with it). */
const preparedAs = (name: string) => expect.stringMatching(new RegExp(`^/\\* prepared: ${name} \\*/`));

describe('a write costs a fixed number of statements', () => {
  // A write reads the caller's rights first (with the project, for a PUT base and a DELETE: the
  // statement of a GET), the domain decides, then the store writes, conditioned on the If-Match
  // revision, and reads the project back for the answer.
  const RIGHTS = expect.stringMatching(named('project_membership', 'WITH RECURSIVE'));
  const READ = expect.stringMatching(named('project_read', 'WITH RECURSIVE'));
  const RE_READ = expect.stringMatching(/^\s*SELECT\s+p\.uid::text AS "uid"/);

  it('PUT settings with one If-Match revision: the rights, then one statement (the write, the members, the project after)', async () => {
    const current = await service.request
      .get(`/projects/${child}/settings`)
      .set('Authorization', bearer('qc-wanda'))
      .expect(200);
    const { count, sql, response } = await counted(() =>
      service.request
        .put(`/projects/${child}/settings`)
        .set('If-Match', String(current.headers['etag']))
        .set('Authorization', bearer('qc-wanda'))
        .send({ writers: [{ username: 'qc-wanda' }, { username: 'qc-walt' }], mission_statement: 'counted' }),
    );
    expect(response.status).toBe(200);
    expect({ count, sql }).toEqual({
      count: 2,
      sql: [RIGHTS, preparedAs('project_settings_write_recording')],
    });
    expect(response.body).toMatchObject({
      mission_statement: 'counted',
      writers: [{ username: 'qc-wanda' }, { username: 'qc-walt' }],
    });
    // A PUT replaces the settings: a list left out is empty, so absent from the answer.
    expect(response.body).not.toHaveProperty('meeting_coordinators');
  });

  it('PUT settings without If-Match, uncontended: the same two statements', async () => {
    const { count, sql, response } = await counted(() =>
      service.request
        .put(`/projects/${child}/settings`)
        .set('Authorization', bearer('qc-wanda'))
        .send({ writers: [{ username: 'qc-wanda' }], mission_statement: 'unconditional' }),
    );
    expect(response.status).toBe(200);
    expect({ count, sql }).toEqual({
      count: 2,
      sql: [RIGHTS, preparedAs('project_settings_write_recording')],
    });
  });

  it('PUT base, the parent unchanged: the project with the rights, then one statement (the write, the project after)', async () => {
    const current = await service.request
      .get(`/projects/${child}`)
      .set('Authorization', bearer('qc-wanda'))
      .expect(200);
    const { count, sql, response } = await counted(() =>
      service.request
        .put(`/projects/${child}`)
        .set('If-Match', String(current.headers['etag']))
        .set('Authorization', bearer('qc-wanda'))
        .send({ ...current.body, description: 'counted' }),
    );
    expect({ status: response.status, count, sql }).toEqual({
      status: 200,
      count: 2,
      sql: [READ, preparedAs('project_base_update_recording')],
    });
    expect(response.body).toMatchObject({ uid: child, description: 'counted', parent_uid: org });
  });

  it('PUT base with a stale If-Match: the write writes nothing, the move-safe path answers 412', async () => {
    const current = await service.request
      .get(`/projects/${child}`)
      .set('Authorization', bearer('qc-wanda'))
      .expect(200);
    const { count, sql, response } = await counted(() =>
      service.request
        .put(`/projects/${child}`)
        .set('If-Match', '"b1"')
        .set('Authorization', bearer('qc-wanda'))
        .send({ ...current.body, description: 'stale' }),
    );
    // The project with the rights, the write's statement (nothing written), then the move-safe
    // transaction: the stored parent, the conditional UPDATE, the project that tells 412 from 404.
    expect({ status: response.status, count, sql }).toEqual({
      status: 412,
      count: 6,
      sql: [
        READ,
        preparedAs('project_base_update_recording'),
        expect.stringMatching(/SELECT parent_uid::text AS parent_uid FROM projects/),
        expect.stringMatching(/^\s*UPDATE "public"\."projects"/),
        RE_READ,
        expect.stringMatching(/COMMIT/),
      ],
    });
  });

  it("POST: the parent's rights, then one statement (the project, its members, the project as created)", async () => {
    const { count, sql, response } = await counted(() =>
      service.request
        .post('/projects')
        .set('Authorization', bearer('qc-wanda'))
        .send({
          slug: 'qc-counted',
          name: 'counted',
          description: 'd',
          parent_uid: org,
          writers: [{ username: 'qc-wanda' }],
          auditors: [{ username: 'qc-otto' }],
        }),
    );
    expect(response.status).toBe(201);
    expect({ count, sql }).toEqual({ count: 2, sql: [RIGHTS, preparedAs('project_insert_recording')] });
    expect(response.body).toMatchObject({
      slug: 'qc-counted',
      parent_uid: org,
      writers: [{ username: 'qc-wanda' }],
      auditors: [{ username: 'qc-otto' }],
    });
    expect(response.body).not.toHaveProperty('meeting_coordinators');
  });

  it("POST by a caller who may not write the parent: the parent's rights, no write", async () => {
    const { count, sql, response } = await counted(() =>
      service.request
        .post('/projects')
        .set('Authorization', bearer('qc-otto'))
        .send({ slug: 'qc-refused', name: 'refused', description: 'd', parent_uid: org }),
    );
    expect({ status: response.status, count, sql }).toEqual({ status: 403, count: 1, sql: [RIGHTS] });
    await service.request
      .get('/projects?slug=qc-refused')
      .set('Authorization', bearer('qc-wanda'))
      .expect(200)
      .expect((listed) => expect(listed.body.projects).toEqual([]));
  });

  it('DELETE: the project with the rights, one conditional DELETE', async () => {
    const doomed = (await createProject(service, { parent_uid: org })).uid;
    const { count, sql, response } = await counted(() =>
      service.request
        .delete(`/projects/${doomed}`)
        .set('If-Match', '"b1"')
        .set('Authorization', bearer('qc-wanda')),
    );
    expect({ status: response.status, count, sql }).toEqual({
      status: 204,
      count: 2,
      sql: [READ, preparedAs('project_delete_recording')],
    });
    await service.request.get(`/projects/${doomed}`).set('Authorization', bearer('qc-wanda')).expect(404);
  });
});

describe('a page of the list costs the same statements whatever its size', () => {
  it('two: the visible keys, then the projects with their members', async () => {
    for (let index = 0; index < 5; index += 1) {
      await createProject(service, { parent_uid: org, writers: [{ username: `qc-page-${index}` }] });
    }
    const one = await counted(() =>
      service.request.get(`/projects?parent_uid=${org}&page_size=1`).set('Authorization', bearer('qc-wanda')),
    );
    const five = await counted(() =>
      service.request.get(`/projects?parent_uid=${org}&page_size=5`).set('Authorization', bearer('qc-wanda')),
    );
    expect([one.response.status, five.response.status]).toEqual([200, 200]);
    expect(five.response.body.projects).toHaveLength(5);
    expect([one.count, five.count]).toEqual([2, 2]);
    expect(five.sql).toEqual([
      expect.stringMatching(named('project_list_page', 'SELECT p.name')),
      expect.stringMatching(named('projects_by_uid', 'SELECT')),
    ]);
  });
});
