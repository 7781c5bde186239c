import { useCodeHostingApi, testRootUrl } from './app';
import { api, auth, createOrg, createUser } from './actors';

// The JSON operations take JSON: another body is refused with 415, saying so, never read as `{}`.

const service = useCodeHostingApi();

describe('a body that is not JSON', () => {
  it('a form-encoded body to POST /orgs answers 415 saying the endpoint takes JSON', async () => {
    const owner = await createUser(service, 'form-owner');
    const response = await service.request
      .post(`${api}/orgs`)
      .set(...auth(owner.token))
      .type('form')
      .send('username=form-org&full_name=Form');
    expect(response.status).toBe(415);
    expect(response.body).toEqual({
      message: expect.stringMatching(/application\/json/),
      url: `${testRootUrl}api/swagger`,
    });
    await service.request
      .get(`${api}/orgs/form-org`)
      .set(...auth(owner.token))
      .expect(404);
  });

  it.each([
    ['text/plain', 'full_name=Plain'],
    ['application/xml', '<org/>'],
    [
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="full_name"\r\n\r\nM\r\n--x--\r\n',
    ],
  ])('a %s body to PATCH /orgs/{org} answers 415 and changes nothing', async (type, payload) => {
    const owner = await createUser(service, 'type-owner');
    const org = await createOrg(service, owner, { full_name: 'Before' });
    const response = await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(owner.token))
      .set('Content-Type', type)
      .send(payload);
    expect(response.status).toBe(415);
    const after = await service.request.get(`${api}/orgs/${org.name}`).set(...auth(owner.token));
    expect(after.body.full_name).toBe('Before');
  });

  it('JSON sent as text/plain (fetch with a string body) is read as JSON, as Gitea reads it', async () => {
    const owner = await createUser(service, 'plain-owner');
    const org = await createOrg(service, owner);
    const response = await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(owner.token))
      .set('Content-Type', 'text/plain;charset=UTF-8')
      .send(JSON.stringify({ full_name: 'Plain' }));
    expect(response.status).toBe(200);
    expect(response.body.full_name).toBe('Plain');
  });

  it('malformed JSON declared as JSON stays a 400', async () => {
    const owner = await createUser(service, 'malformed-owner');
    const org = await createOrg(service, owner);
    const response = await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(owner.token))
      .set('Content-Type', 'application/json')
      .send('{"full_name":');
    expect(response.status).toBe(400);
  });

  it('JSON with a charset or a +json type is JSON', async () => {
    const owner = await createUser(service, 'charset-owner');
    const org = await createOrg(service, owner);
    for (const type of ['application/json; charset=utf-8', 'application/merge-patch+json']) {
      const response = await service.request
        .patch(`${api}/orgs/${org.name}`)
        .set(...auth(owner.token))
        .set('Content-Type', type)
        .send(JSON.stringify({ location: type }));
      expect(response.status).toBe(200);
      expect(response.body.location).toBe(type);
    }
  });

  it('no body where none is needed stays fine, whatever the Content-Type', async () => {
    const owner = await createUser(service, 'empty-owner');
    const org = await createOrg(service, owner);
    await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(owner.token))
      .expect(200);
    await service.request
      .delete(`${api}/orgs/${org.name}`)
      .set(...auth(owner.token))
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .expect(204);
  });
});
