import { Writable } from 'node:stream';
import { testAuthConfig, useProjectService } from './app';
import { admin, rootUid } from './project-fixtures';

// Every secret a client might send, each one distinct so a leak names its source.
const SECRETS = {
  bearer: 'eyJhbGciOiJIUzI1NiJ9.bearer-secret-0001.sig',
  basicPassword: 'basic-password-secret-0002',
  tokenScheme: 'token-scheme-secret-0003aaaaaaaaaaaaaaaa',
  accessTokenQuery: 'access-token-query-secret-0004',
  tokenQuery: 'token-query-secret-0005',
  cookie: 'cookie-session-secret-0006',
  bodyPassword: 'body-password-secret-0007',
  proxyAuthorization: 'proxy-secret-0008',
  malformedBodyPassword: 'malformed-body-secret-0009',
};

const captured: string[] = [];
const destination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    captured.push(chunk.toString('utf8'));
    done();
  },
});

const service = useProjectService(testAuthConfig, { logDestination: destination, logLevel: 'trace' });

describe('logs at trace level', () => {
  it('never contain a credential from a whole batch of requests', async () => {
    const basic = Buffer.from(`alice:${SECRETS.basicPassword}`).toString('base64');
    const root = await rootUid(service);
    await service.request.get('/projects').set('Authorization', `Bearer ${SECRETS.bearer}`).expect(401);
    await service.request.get('/projects').set('Authorization', `Basic ${basic}`).expect(401);
    await service.request.get('/projects').set('Authorization', `token ${SECRETS.tokenScheme}`).expect(401);
    await service.request.get(`/projects?access_token=${SECRETS.accessTokenQuery}`).expect(401);
    await service.request
      .get(`/projects?token=${SECRETS.tokenQuery}&page_size=1`)
      .set('Authorization', admin());
    await service.request
      .get('/projects/x')
      .set('Cookie', `session=${SECRETS.cookie}`)
      .set('Authorization', admin());
    await service.request
      .get('/projects')
      .set('Proxy-Authorization', `Basic ${SECRETS.proxyAuthorization}`)
      .set('Authorization', admin());
    await service.request
      .post('/projects')
      .set('Authorization', admin())
      .send({ slug: 'x', name: 'x', parent_uid: root, password: SECRETS.bodyPassword });
    await service.request
      .post('/projects')
      .set('Authorization', admin())
      .set('Content-Type', 'application/json')
      .send(`{"password": "${SECRETS.malformedBodyPassword}", `);
    await service.request.get('/no-route?access_token=' + SECRETS.accessTokenQuery);

    const logs = captured.join('');
    // The batch was logged (at trace level), just never its credentials.
    expect(logs).toContain('request completed');
    const leaked = Object.entries(SECRETS).filter(([, secret]) => logs.includes(secret));
    expect(leaked).toEqual([]);
    // A Basic header's base64 is a secret too.
    expect(logs).not.toContain(basic);
  });
});
