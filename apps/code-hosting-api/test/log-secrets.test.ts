import {
  capturedLogLines,
  credentialLeaks,
  describeMisplacedCredentialLogs,
  describeProcessLogSecrets,
  rawHttp,
  signTestToken,
} from '@repo/testing';
import { siteAdmin } from './app';
import { adminAuthorization, api, basic, createUser } from './actors';
import { useObservedCodeHostingApi } from './observed-app';
import { processAdmin, processAdminAuthorization, processAdminToken, serviceHome } from './service-process';

jest.setTimeout(60_000);

// Every credential a Gitea client might send, each distinct so a leak names its source.
const SECRETS = {
  tokenHeader: '0123456789abcdef0123456789abcdef01234567',
  bearerHeader: 'fedcba9876543210fedcba9876543210fedcba98',
  basicPassword: 'basic-password-secret-0002',
  accessTokenQuery: 'access-token-query-secret-0004',
  tokenQuery: 'token-query-secret-0005',
  cookie: 'cookie-session-secret-0006',
  newUserPassword: 'new-user-password-secret-0007',
  malformedBodyPassword: 'malformed-body-secret-0009',
  apiKey: 'x-api-key-secret-0010',
  otp: 'otp-secret-0011',
  urlPassword: 'url-userinfo-secret-0012',
  encodedQuery: 'encoded-query-secret-0013',
  proxyAuthorization: 'proxy-secret-0014',
};

// `Sudo` (header or query) names the user an administrator acts as: a user name, not a
// credential. It stays readable in the logs, like any other user name.

const { destination, lines: captured } = capturedLogLines();

const service = useObservedCodeHostingApi({ logDestination: destination, logLevel: 'trace' });

describe('logs at trace level', () => {
  it('never contain a credential from a whole batch of requests', async () => {
    const alice = await createUser(service, 'secret-alice');
    await service.request.get(`${api}/user`).set('Authorization', `token ${SECRETS.tokenHeader}`).expect(401);
    await service.request
      .get(`${api}/user`)
      .set('Authorization', `Bearer ${SECRETS.bearerHeader}`)
      .expect(401);
    await service.request
      .get(`${api}/user`)
      .set('Authorization', basic('alice', SECRETS.basicPassword))
      .expect(401);
    await service.request.get(`${api}/user?access_token=${SECRETS.accessTokenQuery}`).expect(401);
    await service.request.get(`${api}/user?token=${SECRETS.tokenQuery}`).expect(401);
    await service.request.get(`${api}/user?access_token=${alice.token}`).expect(200);
    await service.request.get(`${api}/user`).set('Cookie', `i_like_gitea=${SECRETS.cookie}`);
    await service.request
      .post(`${api}/admin/users`)
      .set('Authorization', basic(siteAdmin.username, siteAdmin.password))
      .send({ username: 'secret-bob', email: 'bob@example.com', password: SECRETS.newUserPassword })
      .expect(201);
    await service.request
      .post(`${api}/admin/users`)
      .set('Authorization', basic(siteAdmin.username, siteAdmin.password))
      .set('Content-Type', 'application/json')
      .send(`{"password": "${SECRETS.malformedBodyPassword}", `);
    await service.request
      .get(`${api}/user`)
      .set('Authorization', `token ${alice.token}`)
      .set('Sudo', 'secret-bob');
    await service.request
      .get(`${api}/user`)
      .set('Authorization', `token ${alice.token}`)
      .set('X-Api-Key', SECRETS.apiKey);

    const logs = captured.join('\n');
    expect(logs).toContain('request completed');
    expect(credentialLeaks(logs, SECRETS)).toEqual([]);
    expect(logs).not.toContain(alice.token);
    expect(logs).not.toContain(alice.password);
    expect(logs).not.toContain(siteAdmin.password);
  });
});

describeMisplacedCredentialLogs({
  baseUrl: () => service.baseUrl,
  credentials: async () => ({
    // The service reads no JWT: a well-formed one, as a client of another service would send it.
    jwt: signTestToken({ sub: 'misplaced' }, { algorithm: 'HS256', secret: 'not-read-by-this-service' }),
    // A real access token with every scope.
    hexToken: (await createUser(service, 'misplaced')).token,
    collection: `${api}/orgs`,
    headers: [['Authorization', adminAuthorization]],
  }),
  lines: captured,
  headersLogged: false,
});

describeProcessLogSecrets({
  serviceHome,
  sendCredentials: async (service) => {
    const base = service.baseUrl;
    const admin: [string, string] = ['Authorization', processAdminAuthorization];
    const token = await processAdminToken(service, 'log-secrets');
    const tokenAsUser = basic(token, 'x-oauth-basic');
    const requests: Parameters<typeof rawHttp>[1][] = [
      { method: 'GET', path: `${api}/user`, headers: [['Authorization', `token ${token}`]] },
      { method: 'GET', path: `${api}/user`, headers: [['Authorization', `token ${SECRETS.tokenHeader}`]] },
      { method: 'GET', path: `${api}/user`, headers: [['Authorization', `Bearer ${SECRETS.bearerHeader}`]] },
      {
        method: 'GET',
        path: `${api}/user`,
        headers: [['Authorization', basic('alice', SECRETS.basicPassword)]],
      },
      { method: 'GET', path: `${api}/user`, headers: [['Authorization', tokenAsUser]] },
      { method: 'GET', path: `${api}/user?access_token=${SECRETS.accessTokenQuery}` },
      { method: 'GET', path: `${api}/user?token=${SECRETS.tokenQuery}` },
      { method: 'GET', path: `${api}/user?access%5Ftoken=${SECRETS.encodedQuery}` },
      { method: 'GET', path: `${api}/user?sudo=${processAdmin.username}&access_token=${token}` },
      { method: 'GET', path: `${api}/user`, headers: [['Cookie', `i_like_gitea=${SECRETS.cookie}`]] },
      { method: 'GET', path: `${api}/user`, headers: [admin, ['X-Api-Key', SECRETS.apiKey]] },
      { method: 'GET', path: `${api}/user`, headers: [admin, ['X-Gitea-OTP', SECRETS.otp]] },
      {
        method: 'GET',
        path: `${api}/user`,
        headers: [['Proxy-Authorization', `Basic ${SECRETS.proxyAuthorization}`]],
      },
      {
        method: 'GET',
        path: `${api}/user`,
        headers: [
          ['Authorization', `token ${token}`],
          ['Sudo', processAdmin.username],
        ],
      },
      { method: 'GET', path: `http://alice:${SECRETS.urlPassword}@127.0.0.1:${service.port}${api}/user` },
      { method: 'GET', path: `/no-route?access_token=${SECRETS.accessTokenQuery}` },
      {
        method: 'POST',
        path: `${api}/admin/users`,
        headers: [admin, ['Content-Type', 'application/json']],
        body: JSON.stringify({
          username: 'bob',
          email: 'bob@example.com',
          password: SECRETS.newUserPassword,
        }),
      },
      {
        method: 'POST',
        path: `${api}/admin/users`,
        headers: [admin, ['Content-Type', 'application/json']],
        body: `{"password": "${SECRETS.malformedBodyPassword}", `,
      },
    ];
    for (const request of requests) await rawHttp(base, request);
    return {
      ...SECRETS,
      token,
      tokenAsUser,
      adminPassword: processAdmin.password,
      adminBasic: processAdminAuthorization,
    };
  },
});
