/**
 * The bench's baseline (bench/baseline/handlers.ts) answers what the service answers, byte for
 * byte: the bench compares the two on the same requests, so a ratio only means something while
 * this holds. The baseline's SQL runs on this file's own database (PGlite or PostgreSQL).
 */
import { querySource } from '@repo/testing';
import type { BaselineResponse } from '@repo/testing/bench';
import { createBaseline } from '../bench/baseline/handlers';
import { ADMIN_GROUP, ADMIN_PRINCIPAL, bearer, TEST_JWT_SECRET, useProjectService } from './app';
import { createProject, rootUid, uniqueSlug } from './project-fixtures';

const service = useProjectService();
let baseline: ReturnType<typeof createBaseline>;
let top: { uid: string };
let middle: { uid: string };
let deep: { uid: string; slug: string };
let hidden: { uid: string };

const writer = () => bearer('baseline-writer');
const auditor = () => bearer('baseline-auditor');
const member = (username: string) => ({
  username,
  name: `${username} name`,
  email: `${username}@example.org`,
  avatar: `https://avatars.example.org/${username}`,
});

beforeAll(async () => {
  baseline = createBaseline({
    query: (sql, parameters) => querySource(service.database, sql, parameters),
    jwtSecret: TEST_JWT_SECRET,
    adminPrincipals: [ADMIN_PRINCIPAL],
    adminGroup: ADMIN_GROUP,
  });
  const root = await rootUid(service);
  top = await createProject(service, {
    parent_uid: root,
    writers: [member('baseline-writer')],
    auditors: [member('baseline-auditor')],
    meeting_coordinators: [member('coordinator')],
    category: 'Sandbox',
    funding_model: ['Membership', 'Crowdfunding'],
    website_url: 'https://example.org/top',
  });
  middle = await createProject(service, { parent_uid: top.uid, public: true, name: 'Middle <&> "quoted"' });
  deep = await createProject(service, {
    parent_uid: middle.uid,
    name: 'Déjà vu ✓',
    description: 'deep, with \u2028 and emoji 🚀',
    mission_statement: 'mission',
    announcement_date: '2026-01-02',
    writers: [member('w1'), member('w2')],
  });
  for (let i = 0; i < 5; i++)
    await createProject(service, { parent_uid: middle.uid, name: `Child ${i % 2}` });
  hidden = await createProject(service, { parent_uid: root });
});

async function fromService(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    etag: response.headers.get('etag') ?? undefined,
    body: Buffer.from(await response.arrayBuffer()),
  };
}

async function fromBaseline(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const lower = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const response: BaselineResponse = await baseline({
    method,
    url: path,
    headers: lower,
    body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
  });
  return { status: response.status, etag: response.headers['etag'], body: Buffer.from(response.body) };
}

/** The service's and the baseline's answer to one request: status, ETag and body bytes. */
async function answers(method: string, path: string, headers: Record<string, string>) {
  const view = (answer: { status: number; etag?: string; body: Buffer }) => ({
    status: answer.status,
    etag: answer.etag,
    body: answer.body.toString('latin1'),
  });
  return {
    service: view(await fromService(method, path, headers)),
    baseline: view(await fromBaseline(method, path, headers)),
  };
}

describe('the bench baseline answers as the service does', () => {
  it.each([
    ['base', ''],
    ['settings', '/settings'],
  ])(
    'GET %s of a deep project read through a writer role inherited from two levels up',
    async (_name, suffix) => {
      {
        const { service: expected, baseline: actual } = await answers(
          'GET',
          `/projects/${deep.uid}${suffix}`,
          { authorization: writer() },
        );
        expect(actual).toEqual(expected);
      }
    },
  );

  it.each(['application/xml', 'application/gob'])('GET base and settings in %s', async (accept) => {
    {
      const { service: expected, baseline: actual } = await answers('GET', `/projects/${deep.uid}`, {
        authorization: writer(),
        accept,
      });
      expect(actual).toEqual(expected);
    }
    {
      const { service: expected, baseline: actual } = await answers('GET', `/projects/${deep.uid}/settings`, {
        authorization: auditor(),
        accept,
      });
      expect(actual).toEqual(expected);
    }
  });

  it('GET of a project the caller may not view (404) and settings a viewer may not read (403)', async () => {
    {
      const { service: expected, baseline: actual } = await answers('GET', `/projects/${hidden.uid}`, {
        authorization: writer(),
      });
      expect(actual).toEqual(expected);
    }
    {
      const { service: expected, baseline: actual } = await answers(
        'GET',
        `/projects/${middle.uid}/settings`,
        { authorization: bearer('stranger') },
      );
      expect(actual).toEqual(expected);
    }
  });

  it("the paged list of one parent's children, first and next page, and the unpaged list", async () => {
    const first = `/projects?parent_uid=${middle.uid}&page_size=4`;
    {
      const { service: expected, baseline: actual } = await answers('GET', first, {
        authorization: writer(),
      });
      expect(actual).toEqual(expected);
    }
    const page = JSON.parse(
      (await fromService('GET', first, { authorization: writer() })).body.toString(),
    ) as {
      next_page_token: string;
    };
    {
      const { service: expected, baseline: actual } = await answers(
        'GET',
        `/projects?parent_uid=${middle.uid}&page_size=4&page_token=${page.next_page_token}`,
        {
          authorization: writer(),
        },
      );
      expect(actual).toEqual(expected);
    }
    {
      const { service: expected, baseline: actual } = await answers('GET', '/projects', {
        authorization: writer(),
      });
      expect(actual).toEqual(expected);
    }
    {
      const { service: expected, baseline: actual } = await answers('GET', '/projects', {
        authorization: bearer(ADMIN_PRINCIPAL),
      });
      expect(actual).toEqual(expected);
    }
  });

  /** Writes cannot be repeated byte for byte: the write time differs, and a create's uid and slug. */
  const masked = (body: Buffer, fields: string[]) => {
    const value = JSON.parse(body.toString()) as Record<string, unknown>;
    for (const field of fields) value[field] = `<${field}>`;
    return JSON.stringify(value);
  };

  it('PUT base with If-Match', async () => {
    const path = `/projects/${deep.uid}`;
    const update = {
      slug: deep.slug,
      name: 'Renamed ✓',
      description: 'updated',
      parent_uid: middle.uid,
      public: true,
    };
    const current = await fromService('GET', path, { authorization: writer() });
    const a = await fromService('PUT', path, { authorization: writer(), 'If-Match': current.etag! }, update);
    const b = await fromBaseline('PUT', path, { authorization: writer(), 'If-Match': a.etag! }, update);
    expect(a.status).toBe(200);
    expect([b.status, masked(b.body, ['updated_at'])]).toEqual([200, masked(a.body, ['updated_at'])]);
    expect(b.etag).toBe(`"b${Number(a.etag!.slice(2, -1)) + 1}"`);
    const stale = await fromBaseline('PUT', path, { authorization: writer(), 'If-Match': a.etag! }, update);
    const staleService = await fromService(
      'PUT',
      path,
      { authorization: writer(), 'If-Match': a.etag! },
      update,
    );
    expect([stale.status, stale.body.toString()]).toEqual([
      staleService.status,
      staleService.body.toString(),
    ]);
  });

  it('PUT settings with If-Match', async () => {
    const path = `/projects/${deep.uid}/settings`;
    const update = {
      mission_statement: 'new',
      writers: [member('w3')],
      auditors: [member('a1'), member('a2')],
    };
    const current = await fromService('GET', path, { authorization: writer() });
    const a = await fromService('PUT', path, { authorization: writer(), 'If-Match': current.etag! }, update);
    const b = await fromBaseline('PUT', path, { authorization: writer(), 'If-Match': a.etag! }, update);
    expect(a.status).toBe(200);
    expect([b.status, masked(b.body, ['updated_at'])]).toEqual([200, masked(a.body, ['updated_at'])]);
    {
      const { service: expected, baseline: actual } = await answers('GET', path, { authorization: writer() });
      expect(actual).toEqual(expected);
    }
  });

  it('POST a project under a parent written through an inherited role', async () => {
    const create = (slug: string) => ({
      slug,
      name: 'Created',
      description: 'by the identity test',
      parent_uid: middle.uid,
      category: 'Sandbox',
      funding_model: ['Crowdfunding'],
      writers: [member('erin')],
    });
    const a = await fromService('POST', '/projects', { authorization: writer() }, create(uniqueSlug('svc')));
    const b = await fromBaseline(
      'POST',
      '/projects',
      { authorization: writer() },
      create(uniqueSlug('base')),
    );
    const fields = ['uid', 'slug', 'created_at', 'updated_at'];
    expect([b.status, b.etag, masked(b.body, fields)]).toEqual([201, a.etag, masked(a.body, fields)]);
    const duplicate = await fromBaseline('POST', '/projects', { authorization: writer() }, create(deep.slug));
    const duplicateService = await fromService(
      'POST',
      '/projects',
      { authorization: writer() },
      create(deep.slug),
    );
    expect([duplicate.status, duplicate.body.toString()]).toEqual([
      duplicateService.status,
      duplicateService.body.toString(),
    ]);
  });

  it('DELETE with If-Match, and its refusals', async () => {
    const one = await createProject(service, { parent_uid: middle.uid });
    const two = await createProject(service, { parent_uid: middle.uid });
    const a = await fromService('DELETE', `/projects/${one.uid}`, {
      authorization: writer(),
      'If-Match': '"b1"',
    });
    const b = await fromBaseline('DELETE', `/projects/${two.uid}`, {
      authorization: writer(),
      'If-Match': '"b1"',
    });
    expect([a.status, a.body.length]).toEqual([204, 0]);
    expect([b.status, b.body.toString()]).toEqual([204, '']);
    await fromBaseline('GET', `/projects/${two.uid}`, { authorization: writer() }).then((gone) =>
      expect(gone.status).toBe(404),
    );
    const refusals: [string, Record<string, string>][] = [
      [`/projects/${deep.uid}`, { authorization: writer(), 'If-Match': '"b999"' }],
      [`/projects/${deep.uid}`, { authorization: auditor() }],
      [`/projects/${hidden.uid}`, { authorization: writer() }],
      [`/projects/${middle.uid}`, { authorization: writer() }],
      [`/projects/${await rootUid(service)}`, { authorization: bearer(ADMIN_PRINCIPAL) }],
    ];
    for (const [path, headers] of refusals) {
      const { service: expected, baseline: actual } = await answers('DELETE', path, headers);
      expect({ path, ...actual }).toEqual({ path, ...expected });
    }
  });
});
