import { randomBytes } from 'node:crypto';
import net from 'node:net';
import {
  capturedLogLines,
  credentialLeaks,
  describeMisplacedCredentialLogs,
  describeProcessLogSecrets,
} from '@repo/testing';
import { ADMIN_PRINCIPAL, bearer, TEST_JWT_SECRET, testAuthConfig, useProjectService } from './app';
import { admin, rootUid } from './project-fixtures';
import { serviceHome } from './service-process';

jest.setTimeout(60_000);

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
  apiKey: 'x-api-key-secret-0010',
  bareToken: 'bare-token-secret-0011',
  urlPassword: 'url-userinfo-secret-0012',
  encodedQuery: 'encoded-query-secret-0013',
  shortBearer: 's3cr',
  otp: 'otp-secret-0014',
  sudoQueryToken: 'sudo-token-query-secret-0015',
};

const { destination, lines: captured } = capturedLogLines();

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
      .get('/projects')
      .set('X-Api-Key', SECRETS.apiKey)
      .set('Authorization', admin())
      .expect(200);
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

    const logs = captured.join('\n');
    // The batch was logged (at trace level), just never its credentials.
    expect(logs).toContain('request completed');
    expect(credentialLeaks(logs, SECRETS)).toEqual([]);
    // A Basic header's base64 is a secret too.
    expect(logs).not.toContain(basic);
  });
});

describeMisplacedCredentialLogs({
  baseUrl: () => service.baseUrl,
  credentials: async () => {
    const authorization = bearer(ADMIN_PRINCIPAL);
    return {
      // A JWT the service accepts: the caller's own, put in the wrong place.
      jwt: authorization.replace(/^Bearer /, ''),
      hexToken: randomBytes(20).toString('hex'),
      collection: '/projects',
      headers: [['Authorization', authorization]],
    };
  },
  lines: captured,
  headersLogged: true,
});

/** One request written as-is on its own connection (absolute-form targets, repeated headers). */
function rawRequest(port: number, head: string, body = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
    const length = body === '' ? '' : `Content-Length: ${Buffer.byteLength(body)}\r\n`;
    socket.write(`${head}\r\nHost: 127.0.0.1:${port}\r\n${length}Connection: close\r\n\r\n${body}`, 'latin1');
  });
}

describeProcessLogSecrets({
  serviceHome,
  sendCredentials: async (service) => {
    const port = service.port;
    const validBearer = bearer(ADMIN_PRINCIPAL);
    const validToken = validBearer.replace(/^Bearer /, '');
    const basic = Buffer.from(`alice:${SECRETS.basicPassword}`).toString('base64');
    const tokenAsUser = Buffer.from(`${SECRETS.tokenScheme}:x-oauth-basic`).toString('base64');
    const requests: [string, string?][] = [
      [`GET /projects HTTP/1.1\r\nAuthorization: Bearer ${SECRETS.bearer}`],
      [`GET /projects HTTP/1.1\r\nAuthorization: ${validBearer}`],
      [`GET /projects HTTP/1.1\r\nAuthorization: ${SECRETS.bareToken}`],
      [`GET /projects HTTP/1.1\r\nAuthorization: Bearer ${SECRETS.shortBearer}`],
      [`GET /projects HTTP/1.1\r\nAuthorization: Basic ${basic}`],
      [`GET /projects HTTP/1.1\r\nAuthorization: Basic ${tokenAsUser}`],
      [`GET /projects HTTP/1.1\r\nAuthorization: token ${SECRETS.tokenScheme}`],
      [`GET /projects HTTP/1.1\r\nX-Api-Key: ${SECRETS.apiKey}\r\nAuthorization: ${validBearer}`],
      [`GET /projects HTTP/1.1\r\nCookie: session=${SECRETS.cookie}\r\nAuthorization: ${validBearer}`],
      [`GET /projects HTTP/1.1\r\nProxy-Authorization: Basic ${SECRETS.proxyAuthorization}`],
      [`GET /projects HTTP/1.1\r\nX-Gitea-OTP: ${SECRETS.otp}\r\nAuthorization: ${validBearer}`],
      [`GET /projects?token=${SECRETS.tokenQuery}&page_size=1 HTTP/1.1\r\nAuthorization: ${validBearer}`],
      [`GET /projects?access_token=${SECRETS.accessTokenQuery} HTTP/1.1`],
      [`GET /projects?access%5Ftoken=${SECRETS.encodedQuery} HTTP/1.1`],
      [`GET /projects?sudo=alice&token=${SECRETS.sudoQueryToken} HTTP/1.1`],
      [`GET http://alice:${SECRETS.urlPassword}@127.0.0.1:${port}/projects HTTP/1.1`],
      [`GET /no-route?access_token=${SECRETS.accessTokenQuery} HTTP/1.1`],
      [`GET /projects/x/y/z?token=${SECRETS.tokenQuery} HTTP/1.1\r\nAuthorization: ${validBearer}`],
      [
        `POST /projects HTTP/1.1\r\nAuthorization: ${validBearer}\r\nContent-Type: application/json`,
        `{"password": "${SECRETS.malformedBodyPassword}", `,
      ],
      [
        `POST /projects HTTP/1.1\r\nAuthorization: ${validBearer}\r\nContent-Type: application/json`,
        JSON.stringify({ slug: 'x', name: 'x', password: SECRETS.bodyPassword }),
      ],
    ];
    for (const [head, body] of requests) await rawRequest(port, head, body);
    return { ...SECRETS, validToken, basic, tokenAsUser, jwtSecret: TEST_JWT_SECRET };
  },
});
