import type { Response } from 'supertest';
import { siteAdmin, useCodeHostingApi } from './app';
import {
  adminAuthorization,
  adminToken,
  api,
  auth,
  createOrg,
  createOrgRepo,
  createTeam,
  createToken,
} from './actors';
import { createIssue } from './attachment-fixtures';

// Gitea reads a query parameter with url.Values.Get: the first of repeated values, and a name as
// written (`limit[]` is not `limit`). Walked over every query parameter of every GET operation
// the OpenAPI document (the route table) lists: `?p=A&p=B` answers as `?p=A`, `?p=B&p=A` as
// `?p=B`, and `?p[]=A` or `?p[x]=A` as no `p` at all.
const service = useCodeHostingApi();

/** Per parameter: two values each answered differently, and differently from no value. */
const VALUES: Record<string, [string, string]> = {
  page: ['2', '1'],
  limit: ['1', '2'],
  date: ['2001-02-03', 'not-a-date'],
  state: ['closed', 'not-a-state'],
  type: ['pulls', 'not-a-type'],
  size: ['32', '64'],
};

interface QueryOperation {
  path: string;
  names: string[];
}

/**
 * What a client sees of an answer: its status, body and total. (Link repeats the request's query
 * as it came, page replaced, as Gitea's does.)
 */
function seen(response: Response) {
  return {
    status: response.status,
    body: response.body as unknown,
    total: response.headers['x-total-count'],
  };
}

describe('repeated and bracketed query parameters, as Gitea reads them', () => {
  let operations: QueryOperation[];
  let values: Record<string, string>;
  let token: string;
  beforeAll(async () => {
    const document = (await service.request.get('/swagger.v1.json').expect(200)).body as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
    };
    operations = Object.entries(document.paths).flatMap(([path, methods]) => {
      const names = (methods['get']?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      return names.length > 0 ? [{ path, names }] : [];
    });
    // Three of everything a list shows, so that `page` and `limit` change what it shows.
    token = await adminToken(service);
    const orgs = [];
    for (let count = 0; count < 3; count += 1) orgs.push((await createOrg(service, token)).name);
    const org = orgs[0]!;
    await createTeam(service, token, org);
    await createTeam(service, token, org);
    const repo = await createOrgRepo(service, token, org);
    await createIssue(service, token, org, repo);
    await createIssue(service, token, org, repo);
    const closed = await createIssue(service, token, org, repo);
    await service.request
      .patch(`${api}/repos/${org}/${repo}/issues/${closed}`)
      .set(...auth(token))
      .send({ state: 'closed' })
      .expect(201);
    await service.request
      .post(`${api}/repos/${org}/${repo}/pulls`)
      .set(...auth(token))
      .send({ title: 'a change', head: 'feature', base: 'main' })
      .expect(201);
    await createToken(service, siteAdmin, ['all']);
    values = { username: siteAdmin.username, org, owner: org, repo, id: '1' };
  });

  function get(operation: QueryOperation, query: string): Promise<Response> {
    const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);
    const base = path.startsWith('/avatars/') ? '' : api;
    // A password only where a token will not do (a sign-in moves the feed's last_login).
    const authorization = path.endsWith('/tokens') ? adminAuthorization : `token ${token}`;
    return service.request.get(`${base}${path}${query}`).set('Authorization', authorization);
  }

  it('knows two values of every query parameter a GET operation takes', () => {
    const names = new Set(operations.flatMap((operation) => operation.names));
    expect([...names].filter((name) => VALUES[name] === undefined)).toEqual([]);
    expect(operations.length).toBeGreaterThan(8);
  });

  it('the first of repeated values is the value; a bracketed name is another parameter, ignored', async () => {
    for (const operation of operations) {
      const none = seen(await get(operation, ''));
      for (const name of operation.names) {
        const [first, second] = VALUES[name]!;
        const firstAlone = seen(await get(operation, `?${name}=${first}`));
        const secondAlone = seen(await get(operation, `?${name}=${second}`));
        const where = `${operation.path} ${name}`;
        // Each value changes the answer, so each comparison below could fail.
        expect({ where, differ: firstAlone }).not.toEqual({ where, differ: secondAlone });
        expect({ where, differ: firstAlone }).not.toEqual({ where, differ: none });
        for (const [query, expected] of [
          [`?${name}=${first}&${name}=${second}`, firstAlone],
          [`?${name}=${second}&${name}=${first}`, secondAlone],
          [`?${name}[]=${first}`, none],
          [`?${name}[]=${first}&${name}[]=${second}`, none],
          [`?${name}[x]=${first}`, none],
        ] as const) {
          expect({ where, query, answer: seen(await get(operation, query)) }).toEqual({
            where,
            query,
            answer: expected,
          });
        }
      }
    }
  }, 120_000);

  it('the first token or sudo of repeated ones is the credential', async () => {
    await service.request.get(`${api}/user?token=${token}&token=not-a-token`).expect(200);
    await service.request.get(`${api}/user?token=not-a-token&token=${token}`).expect(401);
    const first = await service.request
      .get(`${api}/user?sudo=${siteAdmin.username}&sudo=nobody-at-all`)
      .set(...auth(token))
      .expect(200);
    expect(first.body.login).toBe(siteAdmin.username);
    await service.request
      .get(`${api}/user?sudo=nobody-at-all&sudo=${siteAdmin.username}`)
      .set(...auth(token))
      .expect(404);
  });
});
