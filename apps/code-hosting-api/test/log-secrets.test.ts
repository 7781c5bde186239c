import { Writable } from 'node:stream';
import { siteAdmin } from './app';
import { api, basic, createUser } from './actors';
import { useObservedCodeHostingApi } from './observed-app';

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
  sudoToken: 'sudo-header-secret-0010',
};

const captured: string[] = [];
const destination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    captured.push(chunk.toString('utf8'));
    done();
  },
});

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
      .set('Sudo', SECRETS.sudoToken);

    const logs = captured.join('');
    expect(logs).toContain('request completed');
    const leaked = Object.entries(SECRETS).filter(([, secret]) => logs.includes(secret));
    expect(leaked).toEqual([]);
    expect(logs).not.toContain(alice.token);
    expect(logs).not.toContain(alice.password);
    expect(logs).not.toContain(siteAdmin.password);
  });
});
