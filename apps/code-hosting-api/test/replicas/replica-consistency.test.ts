import path from 'node:path';
import {
  createTestDatabase,
  startReplicaSet,
  startServiceProcess,
  type ReplicaSet,
  type TestApp,
  type TestDatabase,
} from '@repo/testing';
import supertest from 'supertest';
import { api, auth, basic, createOrg, createToken, createUser, uniqueName } from '../actors';
import { siteAdmin } from '../app';
import { downloadPath, issueFixture, pngBytes, uploaded } from '../attachment-fixtures';
import { s3Environment, startS3Server, type S3TestServer } from '../s3-server';

// What only several replicas can break: two processes of the built service on one PostgreSQL
// database and one S3 bucket, each request of a case sent to the replica the case names. Nothing a
// replica keeps in memory may make the other one answer differently (README: What each replica
// keeps in memory). PostgreSQL only: jest.config.js leaves test/replicas/ out without DATABASE_URL.

const appDir = path.resolve(__dirname, '../..');
let database: TestDatabase;
let s3: S3TestServer;
let set: ReplicaSet;

/** The fixtures' TestApp, talking to one replica only. */
function replica(index: 0 | 1): TestApp {
  const baseUrl = set.replicas[index]!.baseUrl;
  return {
    get request() {
      return supertest(baseUrl);
    },
    baseUrl,
    database: database.source,
  };
}

const environment = () => ({
  ADMIN_USERNAME: siteAdmin.username,
  ADMIN_PASSWORD: siteAdmin.password,
  PASSWORD_HASH_COST: '16',
  DATABASE_URL: database.source.kind === 'postgres' ? database.source.url : '',
});

beforeAll(async () => {
  database = await createTestDatabase();
  if (database.source.kind !== 'postgres') throw new Error('replica tests need DATABASE_URL');
  s3 = await startS3Server();
  set = await startReplicaSet({
    appDir,
    count: 2,
    env: {
      ...environment(),
      ...s3Environment(s3),
    },
  });
}, 120_000);

afterAll(async () => {
  await set?.stop();
  await s3?.stop();
  await database?.drop();
});

describe('two replicas on one database and one bucket', () => {
  it('a token deleted through one replica is refused by the other at once', async () => {
    const alice = await createUser(replica(0), 'alice');
    const name = uniqueName('revoked');
    const token = await createToken(replica(0), alice, ['all'], name);
    // Used on both first, so each has seen it (and recorded its use).
    await replica(0)
      .request.get(`${api}/user`)
      .set(...auth(token))
      .expect(200);
    await replica(1)
      .request.get(`${api}/user`)
      .set(...auth(token))
      .expect(200);
    await replica(1)
      .request.delete(`${api}/users/${alice.username}/tokens/${name}`)
      .set('Authorization', basic(alice.username, alice.password))
      .expect(204);
    await replica(0)
      .request.get(`${api}/user`)
      .set(...auth(token))
      .expect(401);
    await replica(1)
      .request.get(`${api}/user`)
      .set(...auth(token))
      .expect(401);
  });

  it('a rename through one replica is seen by the next request on the other', async () => {
    const owner = await createUser(replica(0), 'owner');
    const org = await createOrg(replica(0), owner);
    await replica(1).request.get(`${api}/orgs/${org.name}`).expect(200);
    const newName = uniqueName('renamed');
    await replica(0)
      .request.post(`${api}/orgs/${org.name}/rename`)
      .set(...auth(owner.token))
      .send({ new_name: newName })
      .expect(204);
    await replica(1).request.get(`${api}/orgs/${org.name}`).expect(404);
    const renamed = await replica(1).request.get(`${api}/orgs/${newName}`).expect(200);
    expect(renamed.body).toMatchObject({ id: org.id, username: newName });
  });

  it('a visibility change through one replica is applied by the other at once', async () => {
    const owner = await createUser(replica(0), 'owner');
    const org = await createOrg(replica(0), owner);
    await replica(1).request.get(`${api}/orgs/${org.name}`).expect(200);
    await replica(0)
      .request.patch(`${api}/orgs/${org.name}`)
      .set(...auth(owner.token))
      .send({ visibility: 'private' })
      .expect(200);
    await replica(1).request.get(`${api}/orgs/${org.name}`).expect(404);
    const seen = await replica(1)
      .request.get(`${api}/orgs/${org.name}`)
      .set(...auth(owner.token))
      .expect(200);
    expect(seen.body.visibility).toBe('private');
  });

  it('an attachment uploaded through one replica downloads through the other, and is gone from both once deleted', async () => {
    const fixture = await issueFixture(replica(0));
    const attachment = await uploaded(replica(0), fixture.assets, fixture.owner.token, pngBytes, 'pixel.png');
    const download = await replica(1)
      .request.get(downloadPath(attachment.browser_download_url))
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(Buffer.compare(download.body as Buffer, pngBytes)).toBe(0);
    const listed = await replica(1)
      .request.get(fixture.assets)
      .set(...auth(fixture.owner.token))
      .expect(200);
    expect(listed.body.map((item: { uuid: string }) => item.uuid)).toEqual([attachment.uuid]);
    await replica(1)
      .request.delete(`${fixture.assets}/${attachment.id}`)
      .set(...auth(fixture.owner.token))
      .expect(204);
    await replica(0).request.get(downloadPath(attachment.browser_download_url)).expect(404);
  });

  it('neither replica warns about disk storage; a replica on disk storage does, at start', async () => {
    const warning = /attachments are stored on this pod's disk/;
    for (const running of set.replicas) expect(running.output.join('\n')).not.toMatch(warning);
    const onDisk = await startServiceProcess(appDir, environment());
    try {
      const line = onDisk.output.find((text) => warning.test(text));
      expect(line && JSON.parse(line)).toMatchObject({ level: 40, attachmentStorage: 'disk' });
    } finally {
      onDisk.kill('SIGTERM');
      await onDisk.exited;
    }
  });
});
