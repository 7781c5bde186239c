import { loadConfig } from '../src/config';
import { siteAdmin, useCodeHostingApi } from './app';

// Gitea clients ask for the server's version before anything else (the Go SDK's
// NewClient does): GET /api/v1/version, anonymous, {"version": "x.y.z"}.
const service = useCodeHostingApi();
const pinned = useCodeHostingApi({ giteaVersion: '1.22.6' });

describe('GET /api/v1/version', () => {
  it('answers the Gitea release whose API the service follows, without credentials', async () => {
    const response = await service.request.get('/api/v1/version').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual({ version: loadConfig({}).settings.giteaVersion });
    expect(response.body.version).toMatch(/^1\.23\.\d+$/);
  });

  it('answers the same to a signed-in caller', async () => {
    await service.request
      .get('/api/v1/version')
      .auth(siteAdmin.username, siteAdmin.password)
      .expect(200, { version: loadConfig({}).settings.giteaVersion });
  });

  it('answers the version the deployment configures', async () => {
    await pinned.request.get('/api/v1/version').expect(200, { version: '1.22.6' });
  });

  it('is listed in the OpenAPI document', async () => {
    const document = (await service.request.get('/swagger.v1.json').expect(200)).body;
    expect(document.paths['/version'].get.operationId).toBe('getVersion');
    expect(document.paths['/version'].get.security).toEqual([]);
  });
});

describe('GITEA_VERSION', () => {
  it('sets the version, and a value that is not a release number is refused naming the variable', () => {
    expect(loadConfig({ GITEA_VERSION: '1.21.11' }).settings.giteaVersion).toBe('1.21.11');
    expect(() => loadConfig({ GITEA_VERSION: 'latest' })).toThrow(/GITEA_VERSION/);
  });
});
