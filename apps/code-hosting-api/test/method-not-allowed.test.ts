import { useCodeHostingApi, testRootUrl } from './app';
import { adminToken, api, auth } from './actors';

// A known path with a method it does not have: 405 with `Allow`, Gitea's error body.

const service = useCodeHostingApi();

describe('a method the path does not have', () => {
  it.each([
    ['put', `${api}/orgs`, 'GET, POST'],
    ['delete', `${api}/user`, 'GET'],
    ['post', `${api}/orgs/some-org`, 'GET, PATCH, DELETE'],
    ['get', `${api}/orgs/some-org/rename`, 'POST'],
    ['patch', `${api}/teams/1/members/someone`, 'PUT, DELETE'],
    ['post', '/attachments/0b6f3c1e-0000-4000-8000-000000000000', 'GET'],
  ] as const)('%s %s answers 405 with Allow: %s', async (method, path, allow) => {
    const response = await service.request[method](path).set(...auth(await adminToken(service)));
    expect(response.status).toBe(405);
    expect(response.headers['allow']).toBe(allow);
    expect(response.body).toEqual({
      message: expect.stringMatching(/method not allowed/i),
      url: `${testRootUrl}api/swagger`,
    });
  });

  it('answers 405 to an anonymous caller too, before authentication', async () => {
    const response = await service.request.put(`${api}/orgs`);
    expect(response.status).toBe(405);
    expect(response.headers['allow']).toBe('GET, POST');
  });

  it('answers HEAD like GET on a path that has GET, and OPTIONS with 204 and Allow', async () => {
    const head = await service.request.head(`${api}/orgs`);
    expect(head.status).toBe(200);
    const options = await service.request.options(`${api}/orgs/some-org`);
    expect(options.status).toBe(204);
    expect(options.headers['allow']).toBe('GET, PATCH, DELETE');
  });

  it('still answers 404 for a path that is not known', async () => {
    const response = await service.request.put(`${api}/nowhere`);
    expect(response.status).toBe(404);
  });
});
