import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { useProjectService } from './app';
import { admin, createProject, rootUid, uniqueSlug } from './project-fixtures';

const service = useProjectService();
jest.setTimeout(60_000);

let root: string;
beforeAll(async () => {
  root = await rootUid(service);
});

function countStatuses(statuses: number[]): Record<number, number> {
  return statuses.reduce<Record<number, number>>(
    (counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }),
    {},
  );
}

describe('concurrent writes', () => {
  it('lets exactly one of 50 parallel base updates with the same If-Match win; the rest get 412', async () => {
    const project = await createProject(service, { parent_uid: root });
    const current = await service.request
      .get(`/projects/${project.uid}`)
      .set('Authorization', admin())
      .expect(200);
    const etag = current.headers['etag'] as string;
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        service.request
          .put(`/projects/${project.uid}`)
          .set('Authorization', admin())
          .set('If-Match', etag)
          .send({ slug: project.slug, name: `writer ${index}`, description: 'd', parent_uid: root }),
      ),
    );
    expect(countStatuses(responses.map((response) => response.status))).toEqual({ 200: 1, 412: 49 });
    const winner = responses.find((response) => response.status === 200)!;
    const after = await service.request
      .get(`/projects/${project.uid}`)
      .set('Authorization', admin())
      .expect(200);
    expect(after.body.name).toBe(winner.body.name);
    expect(after.headers['etag']).toBe(winner.headers['etag']);
  });

  it('lets exactly one of 50 parallel settings updates with the same If-Match win; the rest get 412', async () => {
    const project = await createProject(service, { parent_uid: root });
    const current = await service.request
      .get(`/projects/${project.uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    const etag = current.headers['etag'] as string;
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        service.request
          .put(`/projects/${project.uid}/settings`)
          .set('Authorization', admin())
          .set('If-Match', etag)
          .send({ writers: [{ username: `writer-${index}` }] }),
      ),
    );
    expect(countStatuses(responses.map((response) => response.status))).toEqual({ 200: 1, 412: 49 });
    const winner = responses.find((response) => response.status === 200)!;
    const after = await service.request
      .get(`/projects/${project.uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    expect(after.body.writers).toEqual(winner.body.writers);
    expect(after.body.writers).toHaveLength(1);
  });

  it.each([
    ['without If-Match replaces the members committed meanwhile', false, 200, []],
    ['with the If-Match read before is stale (412) and leaves them', true, 412, ['first', 'meanwhile']],
  ])(
    'a settings write that waited for another writer’s row lock: %s',
    async (_name, ifMatch, status, writers) => {
      const project = await createProject(service, { parent_uid: root, writers: [{ username: 'first' }] });
      const etag = (
        await service.request
          .get(`/projects/${project.uid}/settings`)
          .set('Authorization', admin())
          .expect(200)
      ).headers['etag'] as string;
      // Another writer's transaction: the settings row locked, a second writer added at position 1.
      const otherWriter = [
        `UPDATE projects SET settings_revision = settings_revision + 1 WHERE uid = $1`,
        `INSERT INTO project_members (project_uid, role, position, username) VALUES ($1, 'writer', 1, 'meanwhile')`,
      ];
      const source = service.database;
      const put = () =>
        service.request
          .put(`/projects/${project.uid}/settings`)
          .set('Authorization', admin())
          .set(ifMatch ? { 'If-Match': etag } : {})
          .send({ writers: [] });
      let response: { status: number };
      if (source.kind === 'postgres') {
        const other = new Client({ connectionString: source.url });
        await other.connect();
        try {
          await other.query('BEGIN');
          for (const sql of otherWriter) await other.query(sql, [project.uid]);
          // The PUT starts while the lock is held: its UPDATE waits until the other writer commits.
          const pending = put().then((answer) => answer);
          await blockedOnLock(other);
          await other.query('COMMIT');
          response = await pending;
        } finally {
          await other.end();
        }
      } else {
        // PGlite has one session: nothing runs beside a transaction, so the other writer just goes first.
        for (const sql of otherWriter) await source.pglite.query(sql, [project.uid]);
        response = await put();
      }
      expect(response.status).toBe(status);
      const after = await service.request
        .get(`/projects/${project.uid}/settings`)
        .set('Authorization', admin())
        .expect(200);
      // No writers: the list is left out.
      const written = (after.body.writers ?? []) as { username: string }[];
      expect(written.map((user) => user.username)).toEqual(writers);
    },
  );

  it('lets exactly one of 50 parallel creates with one slug succeed; the rest get 409', async () => {
    const slug = uniqueSlug('race');
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        service.request
          .post('/projects')
          .set('Authorization', admin())
          .send({ slug, name: `racer ${index}`, description: 'd', parent_uid: root }),
      ),
    );
    expect(countStatuses(responses.map((response) => response.status))).toEqual({ 201: 1, 409: 49 });
    const list = await service.request
      .get('/projects')
      .query({ slug })
      .set('Authorization', admin())
      .expect(200);
    expect(list.body.projects).toHaveLength(1);
  });
});

describe('concurrent moves and deletes', () => {
  const moveUnder = (project: { uid: string; slug: string }, parent: string) =>
    service.request
      .put(`/projects/${project.uid}`)
      .set('Authorization', admin())
      .send({ slug: project.slug, name: 'moved', description: 'd', parent_uid: parent });

  /** Every project's ancestors, walked from the admin's list; throws on a cycle or a missing parent. */
  async function expectATree(): Promise<void> {
    const list = await service.request.get('/projects').set('Authorization', admin()).expect(200);
    const projects = list.body.projects as { uid: string; parent_uid: string }[];
    const parentOf = new Map(projects.map((project) => [project.uid, project.parent_uid]));
    for (const project of projects) {
      const seen = new Set<string>();
      for (let uid = project.uid; uid !== root; uid = parentOf.get(uid)!) {
        if (seen.has(uid)) throw new Error(`cycle through ${uid}`);
        seen.add(uid);
        if (!parentOf.has(parentOf.get(uid)!)) throw new Error(`${uid} has a missing parent`);
      }
    }
  }

  it('lets only one direction of 50 racing moves (A under B, B under A) win, leaving no cycle', async () => {
    const a = await createProject(service, { parent_uid: root });
    const b = await createProject(service, { parent_uid: root });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) => (index % 2 === 0 ? moveUnder(a, b.uid) : moveUnder(b, a.uid))),
    );
    const aUnderB = countStatuses(responses.filter((_, index) => index % 2 === 0).map((r) => r.status));
    const bUnderA = countStatuses(responses.filter((_, index) => index % 2 === 1).map((r) => r.status));
    // The first move wins; its repeats are no-op moves (200); every opposite move would close a cycle (400).
    expect([aUnderB, bUnderA]).toContainEqual({ 200: 25 });
    expect([aUnderB, bUnderA]).toContainEqual({ 400: 25 });
    await expectATree();
  });

  it('never closes a ring when ten projects each move under the next at once', async () => {
    const ring: { uid: string; slug: string }[] = [];
    for (let index = 0; index < 10; index++) ring.push(await createProject(service, { parent_uid: root }));
    const responses = await Promise.all(
      ring.map((project, index) => moveUnder(project, ring[(index + 1) % ring.length]!.uid)),
    );
    const statuses = countStatuses(responses.map((response) => response.status));
    expect(statuses[400]).toBeGreaterThanOrEqual(1);
    expect((statuses[200] ?? 0) + (statuses[400] ?? 0)).toBe(10);
    await expectATree();
  });

  it('lets exactly one of 50 parallel deletes with the same If-Match win; the rest get 412 or 404', async () => {
    const project = await createProject(service, { parent_uid: root });
    const current = await service.request
      .get(`/projects/${project.uid}`)
      .set('Authorization', admin())
      .expect(200);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        service.request
          .delete(`/projects/${project.uid}`)
          .set('Authorization', admin())
          .set('If-Match', current.headers['etag'] as string),
      ),
    );
    const statuses = countStatuses(responses.map((response) => response.status));
    expect(statuses[204]).toBe(1);
    expect((statuses[404] ?? 0) + (statuses[412] ?? 0)).toBe(49);
  });

  it('never leaves a child without its parent when creates under a parent race its delete', async () => {
    const parent = await createProject(service, { parent_uid: root });
    const responses = await Promise.all([
      ...Array.from({ length: 20 }, (_, index) =>
        service.request
          .post('/projects')
          .set('Authorization', admin())
          .send({
            slug: uniqueSlug('child'),
            name: `child ${index}`,
            description: 'd',
            parent_uid: parent.uid,
          }),
      ),
      service.request.delete(`/projects/${parent.uid}`).set('Authorization', admin()),
    ]);
    const deleted = responses.at(-1)!.status;
    const creates = countStatuses(responses.slice(0, -1).map((response) => response.status));
    // Either the delete won (every create after it: 400 invalid parent) or a child did (delete: 409).
    expect([204, 409]).toContain(deleted);
    expect(deleted === 409 ? (creates[201] ?? 0) > 0 : true).toBe(true);
    expect((creates[201] ?? 0) + (creates[400] ?? 0)).toBe(20);
    await expectATree();
  });
});

/** Resolves once another session waits for a lock `holder` holds (the PUT's UPDATE), within 10 s. */
async function blockedOnLock(holder: Client): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await holder.query<{ waiting: number }>(
      // pg_locks is read afresh by each statement (pg_stat_activity is a per-transaction snapshot).
      `SELECT count(*)::int AS waiting FROM pg_locks
        WHERE NOT granted AND pg_backend_pid() = ANY (pg_blocking_pids(pid))`,
    );
    if ((rows[0]?.waiting ?? 0) > 0) return;
    if (Date.now() > deadline) throw new Error('the PUT never waited for the other writer');
    await sleep(10);
  }
}
