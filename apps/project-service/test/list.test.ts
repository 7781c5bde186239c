import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { connectPrisma, type Database } from '../src/db/database';
import { bearer, useProjectService } from './app';
import { admin, createProject, rootUid } from './project-fixtures';

const service = useProjectService();
jest.setTimeout(60_000);

let root: string;
let database: Database;
beforeAll(async () => {
  root = await rootUid(service);
  database = connectPrisma(service.database);
});
afterAll(() => database.close());

interface Listed {
  uid: string;
  name: string;
  slug: string;
}

function list(query: Record<string, string | number>, token = admin()) {
  return service.request.get('/projects').query(query).set('Authorization', token);
}

/** Byte order of names, then uid: the documented list order. */
function inListOrder(a: Listed, b: Listed): number {
  const byName = Buffer.compare(Buffer.from(a.name), Buffer.from(b.name));
  return byName !== 0 ? byName : a.uid < b.uid ? -1 : 1;
}

describe('list', () => {
  it('answers {projects} ordered by name then uid, with Cache-Control for a per-caller list', async () => {
    const parent = await createProject(service, { parent_uid: root });
    for (const name of ['delta', 'Alpha', 'charlie', 'bravo', 'charlie'])
      await createProject(service, { parent_uid: parent.uid, name });
    const response = await list({ parent_uid: parent.uid }).expect(200);
    expect(response.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
    const projects = response.body.projects as Listed[];
    expect(projects.map((project) => project.name)).toEqual([
      'Alpha',
      'bravo',
      'charlie',
      'charlie',
      'delta',
    ]);
    expect([...projects].sort(inListOrder)).toEqual(projects);
    expect(response.body).not.toHaveProperty('next_page_token');
  });

  it('answers an empty list as {projects: []}', async () => {
    const parent = await createProject(service, { parent_uid: root });
    const response = await list({ parent_uid: parent.uid }).expect(200);
    expect(response.body).toEqual({ projects: [] });
  });

  it('pages with page_size and page_token, naming the next page in the body and the Link header', async () => {
    const parent = await createProject(service, { parent_uid: root });
    for (let index = 0; index < 7; index += 1)
      await createProject(service, { parent_uid: parent.uid, name: `page-${index % 3}` });
    const everything = (await list({ parent_uid: parent.uid }).expect(200)).body.projects as Listed[];

    const seen: Listed[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const response = await list({
        parent_uid: parent.uid,
        page_size: 3,
        ...(token ? { page_token: token } : {}),
      }).expect(200);
      pages += 1;
      seen.push(...(response.body.projects as Listed[]));
      token = response.body.next_page_token as string | undefined;
      const expectedLink = token
        ? `</projects?parent_uid=${parent.uid}&page_size=3&page_token=${token}>; rel="next"`
        : undefined;
      expect(response.headers['link']).toBe(expectedLink);
    } while (token);
    expect(pages).toBe(3);
    expect(seen.map((project) => project.uid)).toEqual(everything.map((project) => project.uid));
  });

  it.each([
    [{ page_size: 0 }, 'page_size: must be at least 1'],
    [{ page_size: 1001 }, 'page_size: must be at most 1000'],
    [{ page_size: 'ten' }, 'page_size: expected number'],
    [{ page_token: 'garbage' }, 'page_token: is not a token this service issued'],
    [{ parent_uid: 'nope' }, 'parent_uid: must be a valid uuid'],
    [{ stage: 'Done' }, expect.stringMatching(/^stage: must be one of "Formation - Exploratory"/)],
    [{ category: 'Neutral' }, expect.stringMatching(/^category: must be one of "Active"/)],
    [{ public: 'yes' }, 'public: must be one of "true", "false"'],
  ])('refuses the filter %j with 400', async (query, message) => {
    const response = await list(query as Record<string, string | number>).expect(400);
    expect(response.body).toEqual({ code: '400', message });
  });

  it('filters by parent_uid, slug, stage, category and public', async () => {
    const parent = await createProject(service, { parent_uid: root });
    const match = await createProject(service, {
      parent_uid: parent.uid,
      stage: 'Prospect',
      category: 'TAG',
      public: true,
    });
    await createProject(service, {
      parent_uid: parent.uid,
      stage: 'Prospect',
      category: 'TAG',
      public: false,
    });
    await createProject(service, { parent_uid: parent.uid, stage: 'Active', category: 'TAG', public: true });
    await createProject(service, {
      parent_uid: parent.uid,
      stage: 'Prospect',
      category: 'SIG',
      public: true,
    });
    const filtered = await list({
      parent_uid: parent.uid,
      stage: 'Prospect',
      category: 'TAG',
      public: 'true',
    }).expect(200);
    expect((filtered.body.projects as Listed[]).map((project) => project.uid)).toEqual([match.uid]);
    const bySlug = await list({ slug: match.slug }).expect(200);
    expect((bySlug.body.projects as Listed[]).map((project) => project.uid)).toEqual([match.uid]);
    const privateOnes = await list({ parent_uid: parent.uid, public: 'false' }).expect(200);
    expect(privateOnes.body.projects).toHaveLength(1);
  });

  it('applies the visibility rule on every page', async () => {
    const parent = await createProject(service, { parent_uid: root, public: true });
    for (let index = 0; index < 4; index += 1)
      await createProject(service, { parent_uid: parent.uid, public: index % 2 === 0 });
    const response = await list({ parent_uid: parent.uid, page_size: 1 }, bearer('nobody')).expect(200);
    expect(response.body.projects).toHaveLength(1);
    const second = await list(
      { parent_uid: parent.uid, page_size: 1, page_token: response.body.next_page_token },
      bearer('nobody'),
    ).expect(200);
    expect(second.body.projects).toHaveLength(1);
    expect(second.body).not.toHaveProperty('next_page_token');
  });
});

describe('list of 5,000 projects', () => {
  const COUNT = 5000;
  let parentUid: string;

  beforeAll(async () => {
    parentUid = (await createProject(service, { parent_uid: root, public: true })).uid;
    // One statement; names in an order unrelated to insertion.
    await database.prisma.$executeRaw`
      INSERT INTO projects (uid, slug, name, description, parent_uid, public)
      SELECT gen_random_uuid(), 'bulk-' || n, 'bulk ' || lpad(((n * 7919) % ${COUNT})::text, 5, '0'), 'bulk', ${parentUid}::uuid, n % 2 = 0
      FROM generate_series(1, ${COUNT}) AS n`;
  });

  it('returns every one of them, complete and in order, without paging parameters', async () => {
    const response = await list({ parent_uid: parentUid }).expect(200);
    const projects = response.body.projects as Listed[];
    expect(projects).toHaveLength(COUNT);
    expect(new Set(projects.map((project) => project.uid)).size).toBe(COUNT);
    expect([...projects].sort(inListOrder).map((project) => project.uid)).toEqual(
      projects.map((project) => project.uid),
    );
    expect(projects[0]!.name).toBe('bulk 00000');
  });

  it('streams them: the first bytes leave before the last rows are read, with bounded memory', async () => {
    // A collectable heap measures what is retained, not garbage waiting for the next GC.
    v8.setFlagsFromString('--expose-gc');
    const collectGarbage = vm.runInNewContext('gc') as () => void;
    const liveMemory = () => {
      collectGarbage();
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.external;
    };
    const before = liveMemory();
    let peakGrowth = 0;
    let chunks = 0;
    let items = 0;
    let carry = '';
    const countItems = (text: string) => text.match(/"slug":"bulk-\d+"/g)?.length ?? 0;
    const started = performance.now();
    let firstChunkAfter = 0;
    const url = new URL(`/projects?parent_uid=${parentUid}`, service.baseUrl);
    const headers = await new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
      http
        .get(url, { headers: { Authorization: admin() } }, (response) => {
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            chunks += 1;
            if (chunks === 1) firstChunkAfter = performance.now() - started;
            // Count items without keeping the body: the client must not be what holds memory.
            const text = carry + chunk;
            carry = text.slice(-60);
            items += countItems(text) - countItems(carry);
            if (chunks % 20 === 0) peakGrowth = Math.max(peakGrowth, liveMemory() - before);
          });
          response.on('end', () => {
            items += countItems(carry);
            resolve(response.headers);
          });
          response.on('error', reject);
        })
        .on('error', reject);
    });
    const total = performance.now() - started;
    expect(items).toBe(COUNT);
    expect(headers['transfer-encoding']).toBe('chunked');
    expect(headers['content-length']).toBeUndefined();
    // Read in batches of 500, the first of ten batches is on the wire long before the last is read;
    // a server that read all 5,000 rows first would send its first byte near the end.
    expect(firstChunkAfter).toBeLessThan(total / 2);
    expect(peakGrowth).toBeLessThan(16 * 1024 * 1024);
  });
});
