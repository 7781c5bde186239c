import { Writable } from 'node:stream';
import { useTestApp } from '@repo/testing';
import { connectPrisma } from '../src/db/database';
import { createStore } from '../src/db/store';
import { accountService } from '../src/domain/accounts';
import { composeApp } from '../src/compose';
import { createLogger } from '../src/logger';
import { api, createOrg, createUser } from './actors';
import { idleStorage, siteAdmin, testRootUrl, testSettings } from './app';

// A token's last use is written after the answer (test/token-use.test.ts). When that write fails,
// the line that reports it names the request whose token it was: its request_id, whether the
// token was looked up on its own (GET /user) or by the operation's statement (GET /orgs/{org}),
// and with no request context kept (change events off).

const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(chunk.toString('utf8'));
    done();
  },
});

// Every instance's (TEST_APP_REPLICAS runs several, each request to one of them in turn).
const instancesSettled: (() => Promise<void>)[] = [];
const settled = () => Promise.all(instancesSettled.map((instance) => instance())).then(() => undefined);
let refuseTokenUse: () => Promise<void> = async () => {};
const service = useTestApp(async (source) => {
  const database = connectPrisma(source);
  await accountService(createStore(database), testSettings).bootstrapAdmin(siteAdmin, false);
  const built = composeApp({
    database,
    logger: createLogger('info', capture),
    rootUrl: testRootUrl,
    settings: testSettings,
    storage: idleStorage,
  });
  instancesSettled.push(built.settled);
  // The database refuses the write, as a full disk or a lost connection would make it fail.
  refuseTokenUse = async () => {
    await database.prisma.$executeRawUnsafe(`CREATE FUNCTION refuse_token_use() RETURNS trigger
      LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'token use refused by the test'; END $$`);
    await database.prisma.$executeRawUnsafe(`CREATE TRIGGER refuse_token_use BEFORE UPDATE ON access_tokens
      FOR EACH ROW EXECUTE FUNCTION refuse_token_use()`);
  };
  return { app: built.app, close: () => database.close() };
});

type Line = { msg?: string; request_id?: string; err?: { message?: string } };

it("reports a failed write of a token's last use with the id of the request that used it", async () => {
  const owner = await createUser(service, 'owner');
  // Tokens not used yet: their first use is due a write.
  const reader = await createUser(service, 'reader');
  const viewer = await createUser(service, 'viewer');
  const org = (await createOrg(service, owner)).name;
  await settled();
  await refuseTokenUse();
  lines.length = 0;

  await service.request
    .get(`${api}/user`)
    .set('Authorization', `token ${reader.token}`)
    .set('X-Request-Id', 'looked-up-first')
    .expect(200);
  await service.request
    .get(`${api}/orgs/${org}`)
    .set('Authorization', `token ${viewer.token}`)
    .set('X-Request-Id', 'looked-up-by-the-statement')
    .expect(200);
  await settled();

  const reports = lines
    .map((line) => JSON.parse(line) as Line)
    .filter((line) => line.msg === "recording a token's last use failed");
  expect(reports.map((line) => line.request_id).sort()).toEqual([
    'looked-up-by-the-statement',
    'looked-up-first',
  ]);
  for (const report of reports) expect(report.err?.message).toContain('token use refused by the test');
});
