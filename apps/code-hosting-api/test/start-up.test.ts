import { Writable } from 'node:stream';
import { createTestDatabase, type TestDatabase } from '@repo/testing';
import supertest from 'supertest';
import { loadConfig } from '../src/config';
import { connectPrisma, type Database } from '../src/db/database';
import { createStore } from '../src/db/store';
import { accountService } from '../src/domain/accounts';
import { composeApp } from '../src/compose';
import { createLogger } from '../src/logger';
import { idleStorage, testRootUrl, testSettings } from './app';
import { basic } from './actors';

let testDatabase: TestDatabase;
let database: Database;

/** A fresh database for each test of the block: bootstrapping depends on what already exists. */
function useFreshDatabase(): void {
  beforeEach(async () => {
    testDatabase = await createTestDatabase();
    database = connectPrisma(testDatabase.source);
  });
  afterEach(async () => {
    await database.close();
    await testDatabase.drop();
  });
}

const accounts = () => accountService(createStore(database), testSettings);
const app = (logger = createLogger('silent')) =>
  supertest(
    composeApp({ database, logger, rootUrl: testRootUrl, settings: testSettings, storage: idleStorage }).app,
  );

describe('bootstrap of the site administrator', () => {
  useFreshDatabase();

  it('creates ADMIN_USERNAME as a site administrator with ADMIN_PASSWORD, once', async () => {
    expect(
      await accounts().bootstrapAdmin({ username: 'boss', password: 'boss-password' }, false),
    ).toBeUndefined();
    expect(
      await accounts().bootstrapAdmin({ username: 'boss', password: 'another-password' }, false),
    ).toBeUndefined();
    const response = await app()
      .get('/api/v1/user')
      .set('Authorization', basic('boss', 'boss-password'))
      .expect(200);
    expect(response.body).toMatchObject({ login: 'boss', is_admin: true });
    // The second start did not overwrite the password.
    await app().get('/api/v1/user').set('Authorization', basic('boss', 'another-password')).expect(401);
  });

  it('in development without ADMIN_*, creates root once and hands back a password and a working token', async () => {
    const created = await accounts().bootstrapAdmin(undefined, true);
    expect(created).toEqual({
      username: 'root',
      password: expect.any(String),
      token: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    const me = await app().get('/api/v1/user').set('Authorization', `token ${created!.token}`).expect(200);
    expect(me.body.is_admin).toBe(true);
    await app().get('/api/v1/user').set('Authorization', basic('root', created!.password!)).expect(200);
    expect(await accounts().bootstrapAdmin(undefined, true)).toBeUndefined();
  });

  it('lets replicas starting together bootstrap at once: one creates ADMIN_USERNAME, none fails', async () => {
    const admin = { username: 'boss', password: 'boss-password' };
    const outcomes = await Promise.allSettled([
      accounts().bootstrapAdmin(admin, false),
      accounts().bootstrapAdmin(admin, false),
      accounts().bootstrapAdmin(admin, false),
    ]);
    expect(outcomes).toEqual(Array.from({ length: 3 }, () => ({ status: 'fulfilled', value: undefined })));
    const response = await app().get('/api/v1/user').set('Authorization', basic('boss', 'boss-password'));
    expect(response.body).toMatchObject({ login: 'boss', is_admin: true });
  });

  it('lets replicas starting together in development bootstrap at once: one creates root, none fails', async () => {
    const outcomes = await Promise.allSettled([
      accounts().bootstrapAdmin(undefined, true),
      accounts().bootstrapAdmin(undefined, true),
      accounts().bootstrapAdmin(undefined, true),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    const created = outcomes.flatMap((outcome) =>
      outcome.status === 'fulfilled' && outcome.value ? [outcome.value] : [],
    );
    expect(created).toHaveLength(1);
    await app().get('/api/v1/user').set('Authorization', `token ${created[0]!.token}`).expect(200);
  });

  it('in production without ADMIN_*, creates nobody', async () => {
    expect(await accounts().bootstrapAdmin(undefined, false)).toBeUndefined();
    await app().get('/api/v1/users/root').expect(404);
  });
});

describe('logs', () => {
  useFreshDatabase();

  it('never contain the token of a query string or an Authorization header', async () => {
    const { secret } = await accounts().issueToken(
      await accounts().createUserAccount({
        username: 'logged',
        email: 'logged@example.com',
        password: 'logged-password',
      }),
      'log-test',
      ['all'],
    );
    let output = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString();
        done();
      },
    });
    const http = app(createLogger('info', sink));
    await http.get(`/api/v1/user?token=${secret}`).expect(200);
    await http.get(`/api/v1/user?access_token=${secret}&x=1`).expect(200);
    await http.get('/api/v1/user').set('Authorization', `token ${secret}`).expect(200);
    await http.get('/api/v1/user').set('Authorization', basic('logged', 'logged-password')).expect(200);
    await http.get(`/api/v1/orgs?token=${'f'.repeat(40)}`).expect(401);
    expect(output).toContain('/api/v1/user?token=[redacted]');
    expect(output).not.toContain(secret);
    expect(output).not.toContain('logged-password');
    expect(output).not.toContain('f'.repeat(40));
  });
});

describe('configuration', () => {
  it('reads the organization and paging settings from the environment', () => {
    const config = loadConfig({
      ORG_DISABLED_FEATURES: 'something, danger_zone',
      ORG_DISABLE_REGULAR_CREATION: 'true',
      API_DEFAULT_PAGING_NUM: '10',
      API_MAX_RESPONSE_ITEMS: '20',
      ADMIN_USERNAME: 'boss',
      ADMIN_PASSWORD: 'secret',
      ROOT_URL: 'https://git.example.com/sub',
    });
    expect(config.settings).toMatchObject({
      orgDangerZoneRestricted: true,
      disableRegularOrgCreation: true,
      defaultPageSize: 10,
      maxPageSize: 20,
      defaultAllowCreateOrganization: true,
    });
    expect(config.bootstrapAdmin).toEqual({ username: 'boss', password: 'secret', email: undefined });
    expect(config.rootUrl).toBe('https://git.example.com/sub/');
  });

  it('defaults to Gitea’s 30/50 page sizes, an unrestricted danger zone and no bootstrap admin', () => {
    const config = loadConfig({});
    expect(config.settings).toMatchObject({
      orgDangerZoneRestricted: false,
      disableRegularOrgCreation: false,
      defaultPageSize: 30,
      maxPageSize: 50,
    });
    expect(config.bootstrapAdmin).toBeUndefined();
  });

  it('refuses a password hash cost that is not a power of two, naming the variable but not the value', () => {
    expect(() => loadConfig({ PASSWORD_HASH_COST: '1000' })).toThrow(
      /PASSWORD_HASH_COST: must be a power of two/,
    );
  });
});
