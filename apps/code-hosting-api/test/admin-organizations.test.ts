import { adminToken, api, auth, createOrg, createUser } from './actors';
import { useCodeHostingApi } from './app';

// GET /admin/orgs (Gitea's adminGetAllOrgs): every organization, private ones included,
// for site administrators. The Go SDK's AdminListOrgs is the SDK's only call that lists
// organizations beyond the caller's own.
const service = useCodeHostingApi();

describe('GET /admin/orgs (adminGetAllOrgs)', () => {
  it('lists every organization, private ones too, paginated with X-Total-Count and Link', async () => {
    const owner = await createUser(service, 'admin-orgs-owner');
    const hidden = await createOrg(service, owner, { visibility: 'private' });
    const shown = await createOrg(service, owner, { visibility: 'public' });
    const token = await adminToken(service);
    const all = await service.request
      .get(`${api}/admin/orgs`)
      .query({ limit: 50 })
      .set(...auth(token))
      .expect(200);
    const names = all.body.map((org: { name: string }) => org.name);
    expect(names).toEqual(expect.arrayContaining([hidden.name, shown.name]));
    expect(all.headers['x-total-count']).toBe(String(names.length));
    const first = await service.request
      .get(`${api}/admin/orgs`)
      .query({ page: 1, limit: 1 })
      .set(...auth(token))
      .expect(200);
    expect(first.body).toHaveLength(1);
    expect(first.headers.link).toMatch(/rel="next"/);
  });

  it('refuses a user who is not a site administrator with 403', async () => {
    const user = await createUser(service, 'admin-orgs-user');
    await service.request
      .get(`${api}/admin/orgs`)
      .set(...auth(user.token))
      .expect(403);
  });

  it('asks an anonymous caller to sign in (401)', async () => {
    await service.request.get(`${api}/admin/orgs`).expect(401);
  });

  it('needs a token with the admin scope', async () => {
    const token = await adminToken(service, ['read:organization']);
    await service.request
      .get(`${api}/admin/orgs`)
      .set(...auth(token))
      .expect(403);
  });
});
