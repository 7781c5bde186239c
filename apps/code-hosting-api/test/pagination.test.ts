import { testRootUrl, useCodeHostingApi } from './app';
import { api, auth, createOrg, createUser, type Actor } from './actors';

const service = useCodeHostingApi();
let owner: Actor;
const names: string[] = [];

beforeAll(async () => {
  owner = await createUser(service, 'owner');
  // Created out of order: the listing sorts by name.
  for (const name of ['page-e', 'page-c', 'page-a', 'page-d', 'page-b'])
    names.push((await createOrg(service, owner, { username: name })).name);
  names.sort();
});

const listed = (body: { name: string }[]) => body.map((org) => org.name);
const link = (query: string, rel: string) => `<${testRootUrl}api/v1/orgs?${query}>; rel="${rel}"`;

describe('pagination of lists as Gitea does it', () => {
  it('GET /orgs orders alphabetically by name', async () => {
    const response = await service.request.get(`${api}/orgs`).expect(200);
    expect(listed(response.body)).toEqual(names);
  });

  it('first page: next and last links, the total, and both headers exposed to CORS', async () => {
    const response = await service.request.get(`${api}/orgs?limit=2`).expect(200);
    expect(listed(response.body)).toEqual(names.slice(0, 2));
    expect(response.headers['x-total-count']).toBe('5');
    expect(response.headers['link']).toBe(
      [link('limit=2&page=2', 'next'), link('limit=2&page=3', 'last')].join(','),
    );
    expect(response.headers['access-control-expose-headers']).toBe('Link, X-Total-Count');
  });

  it('middle page: next, last, first and prev links', async () => {
    const response = await service.request.get(`${api}/orgs?page=2&limit=2`).expect(200);
    expect(listed(response.body)).toEqual(names.slice(2, 4));
    expect(response.headers['link']).toBe(
      [
        link('limit=2&page=3', 'next'),
        link('limit=2&page=3', 'last'),
        link('limit=2&page=1', 'first'),
        link('limit=2&page=1', 'prev'),
      ].join(','),
    );
  });

  it('last page: first and prev links only', async () => {
    const response = await service.request.get(`${api}/orgs?limit=2&page=3`).expect(200);
    expect(listed(response.body)).toEqual(names.slice(4));
    expect(response.headers['link']).toBe(
      [link('limit=2&page=1', 'first'), link('limit=2&page=2', 'prev')].join(','),
    );
  });

  it('keeps other query parameters in the links, sorted by key as Go encodes them', async () => {
    const response = await service.request.get(`${api}/orgs?z=last&limit=2&a=first%20one`).expect(200);
    expect(response.headers['link']).toContain(
      `<${testRootUrl}api/v1/orgs?a=first+one&limit=2&page=2&z=last>; rel="next"`,
    );
  });

  it('a page past the end is empty and links back', async () => {
    const response = await service.request.get(`${api}/orgs?limit=2&page=9`).expect(200);
    expect(response.body).toEqual([]);
    expect(response.headers['x-total-count']).toBe('5');
    expect(response.headers['link']).toBe(
      [link('limit=2&page=1', 'first'), link('limit=2&page=2', 'prev')].join(','),
    );
  });

  it.each(['0', '-3', 'junk'])('treats page=%s as the first page', async (page) => {
    const response = await service.request.get(`${api}/orgs?limit=2&page=${page}`).expect(200);
    expect(listed(response.body)).toEqual(names.slice(0, 2));
  });

  it.each(['0', '-1', 'junk'])('treats limit=%s as the default page size (30)', async (limit) => {
    const response = await service.request.get(`${api}/orgs?limit=${limit}`).expect(200);
    expect(listed(response.body)).toEqual(names);
    expect(response.headers['link']).toBeUndefined();
    expect(response.headers['access-control-expose-headers']).toBe('X-Total-Count');
  });

  it('sets the same headers on GET /user/orgs', async () => {
    const response = await service.request
      .get(`${api}/user/orgs?limit=3`)
      .set(...auth(owner.token))
      .expect(200);
    expect(response.headers['x-total-count']).toBe('5');
    expect(response.headers['link']).toBe(
      [
        `<${testRootUrl}api/v1/user/orgs?limit=3&page=2>; rel="next"`,
        `<${testRootUrl}api/v1/user/orgs?limit=3&page=2>; rel="last"`,
      ].join(','),
    );
  });

  it('sets the same headers on GET /users/{username}/orgs and on the feed', async () => {
    const orgs = await service.request.get(`${api}/users/${owner.username}/orgs?limit=4&page=2`).expect(200);
    expect(orgs.body).toHaveLength(1);
    expect(orgs.headers['x-total-count']).toBe('5');
    expect(orgs.headers['link']).toContain('rel="prev"');
    await service.request
      .post(`${api}/orgs/page-a/repos`)
      .set(...auth(owner.token))
      .send({ name: 'one' })
      .expect(201);
    await service.request
      .post(`${api}/orgs/page-a/repos`)
      .set(...auth(owner.token))
      .send({ name: 'two' })
      .expect(201);
    const feed = await service.request.get(`${api}/orgs/page-a/activities/feeds?limit=1`).expect(200);
    expect(feed.body).toHaveLength(1);
    expect(feed.body[0].repo.name).toBe('two');
    expect(feed.headers['x-total-count']).toBe('2');
    expect(feed.headers['link']).toContain('page=2>; rel="next"');
  });
});
