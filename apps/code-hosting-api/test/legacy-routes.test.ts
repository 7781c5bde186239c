import { useCodeHostingApi } from './app';
import { api, auth, createOrg, createUser } from './actors';

// Routes Gitea still serves for older clients, where a current client calls them: the Go SDK's
// CreateOrgRepo posts to /org/{org}/repos (singular), Gitea's createOrgRepoDeprecated.

const service = useCodeHostingApi();

describe('POST /org/{org}/repos', () => {
  it('creates the repository in the organization, as POST /orgs/{org}/repos does', async () => {
    const owner = await createUser(service, 'legacy-owner');
    const org = await createOrg(service, owner);
    const response = await service.request
      .post(`${api}/org/${org.name}/repos`)
      .set(...auth(owner.token))
      .send({ name: 'legacy-repo', description: 'from an older route', private: true });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      full_name: `${org.name}/legacy-repo`,
      private: true,
      owner: { login: org.name },
    });
    const fetched = await service.request
      .get(`${api}/repos/${org.name}/legacy-repo`)
      .set(...auth(owner.token));
    expect(fetched.status).toBe(200);
  });

  it('applies the same rules: 401 anonymous, 403 for a member who may not create, 404 unknown org', async () => {
    const owner = await createUser(service, 'legacy-rules');
    const org = await createOrg(service, owner);
    const outsider = await createUser(service, 'legacy-outsider');
    await service.request.post(`${api}/org/${org.name}/repos`).send({ name: 'x' }).expect(401);
    await service.request
      .post(`${api}/org/${org.name}/repos`)
      .set(...auth(outsider.token))
      .send({ name: 'x' })
      .expect(403);
    await service.request
      .post(`${api}/org/no-such-org/repos`)
      .set(...auth(owner.token))
      .send({ name: 'x' })
      .expect(404);
  });
});
