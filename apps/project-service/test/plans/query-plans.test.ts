import { sequentialScans } from '@repo/testing';
import { Client } from 'pg';
import { connectPrisma } from '../../src/db/database';
import { COMMON_TABLES, SERVICE_TABLES } from '../../src/db/unusable-database';
import { bigParentSlug, deepProjects, seedProjects, type TreeShape } from '../../bench/seed';
import { bearer, useProjectService, testAuthConfig, ADMIN_PRINCIPAL } from '../app';

// Every statement of the hot paths, explained against a seeded PostgreSQL database: none may read a
// table that grows with use (projects, their members, the events' outbox) by a sequential scan, so
// a missing index fails here when it is introduced, not in production at a hundred times the data.
// The statements are the ones the service really runs (seen through the test app's query hook,
// with their parameters), for requests as a writer inherited from the top of an 8-level tree and
// as an administrator. The unpaged list of every project is left out: reading the whole table is
// what it is for. PostgreSQL only: jest.config.js leaves test/plans/ out without DATABASE_URL.

const SHAPE: TreeShape = { projects: 20_000, levels: 8 };
// Every table of the service grows with use (the one list of them: src/db/unusable-database.ts).
const GROWING_TABLES = new Set<string>([...SERVICE_TABLES['project-service'], ...COMMON_TABLES]);

/** Each statement the service ran, with the parameters of its first run. */
const statements = new Map<string, string>();
let recording = false;
const service = useProjectService(testAuthConfig, {
  onQuery: (sql, params) => {
    if (recording && !statements.has(sql)) statements.set(sql, params);
  },
});

/** A connection of the test's own to the app's database, closed before the database is dropped. */
async function withDatabase<T>(task: (client: Client) => Promise<T>): Promise<T> {
  const source = service.database;
  if (source.kind !== 'postgres') throw new Error('query plans are checked on PostgreSQL (DATABASE_URL)');
  const client = new Client({ connectionString: source.url });
  await client.connect();
  try {
    return await task(client);
  } finally {
    await client.end();
  }
}

beforeAll(() => withDatabase((client) => seedProjects(client, SHAPE)), 120_000);

describe('the hot paths on a seeded database', () => {
  it('read no growing table by a sequential scan', () =>
    withDatabase(async (client) => {
      const alice = bearer('alice');
      const admin = bearer(ADMIN_PRINCIPAL);
      const [deep, other] = await deepProjects(client, 2, SHAPE);
      const { rows } = await client.query<{ uid: string }>(
        'SELECT uid::text AS uid FROM projects WHERE slug = $1',
        [bigParentSlug(SHAPE)],
      );
      const bigParent = rows[0]!.uid;
      const request = service.request;

      recording = true;
      // Reads: one project, its settings, a conditional read, lists (a parent's children, by slug,
      // filtered, a page deep in the list) as the inherited writer and as the administrator.
      const read = await request.get(`/projects/${deep}`).set('Authorization', alice).expect(200);
      await request.get(`/projects/${deep}/settings`).set('Authorization', alice).expect(200);
      await request
        .get(`/projects/${deep}`)
        .set('Authorization', alice)
        .set('If-None-Match', read.headers['etag']!)
        .expect(304);
      for (const caller of [alice, admin]) {
        const first = await request
          .get('/projects')
          .query({ parent_uid: bigParent, page_size: 20 })
          .set('Authorization', caller)
          .expect(200);
        await request
          .get('/projects')
          .query({ parent_uid: bigParent, page_size: 20, page_token: first.body.next_page_token })
          .set('Authorization', caller)
          .expect(200);
        await request.get('/projects').query({ slug: 'project-7' }).set('Authorization', caller).expect(200);
        await request.get('/projects').query({ page_size: 50 }).set('Authorization', caller).expect(200);
      }
      // Writes: create, update base and settings with If-Match, move, delete.
      const created = await request
        .post('/projects')
        .set('Authorization', alice)
        .send({
          slug: 'plans-new',
          name: 'New',
          description: 'd',
          parent_uid: bigParent,
          writers: [{ username: 'erin' }],
        })
        .expect(201);
      const base = await request
        .put(`/projects/${created.body.uid}`)
        .set('Authorization', alice)
        .set('If-Match', created.headers['etag']!)
        .send({ slug: 'plans-new', name: 'Renamed', description: 'd', parent_uid: bigParent })
        .expect(200);
      await request
        .put(`/projects/${created.body.uid}/settings`)
        .set('Authorization', alice)
        .send({ mission_statement: 'to be explained', auditors: [{ username: 'dave' }] })
        .expect(200);
      const { body: otherProject } = await request
        .get(`/projects/${other}`)
        .set('Authorization', alice)
        .expect(200);
      await request
        .put(`/projects/${created.body.uid}`)
        .set('Authorization', alice)
        .set('If-Match', base.headers['etag']!)
        .send({ slug: 'plans-new', name: 'Moved', description: 'd', parent_uid: otherProject.parent_uid })
        .expect(200);
      await request.delete(`/projects/${created.body.uid}`).set('Authorization', alice).expect(204);
      recording = false;

      const { explained, scans } = await sequentialScans(
        service.database,
        [...statements].map(([sql, params]) => ({ sql, params })),
        GROWING_TABLES,
      );
      // The requests above ran statements of every kind (reads, lists, writes); each was explained.
      expect(explained).toBeGreaterThan(10);
      expect(scans).toEqual([]);
    }));

  it("are planned without JIT compilation on the service's connections", async () => {
    // JIT compiled the plan of a deep page with its count for longer than the page then ran.
    const database = connectPrisma(service.database);
    try {
      expect(await database.prisma.$queryRaw`SELECT current_setting('jit') AS jit`).toEqual([{ jit: 'off' }]);
    } finally {
      await database.close();
    }
  });
});
