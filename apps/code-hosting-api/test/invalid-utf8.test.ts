import { useCodeHostingApi } from './app';
import { api, auth, createOrg, createUser, uniqueName, type Actor } from './actors';
import { errorBody } from './organization-fixtures';
import { rawHttp } from '@repo/testing';

const service = useCodeHostingApi();

/** `{"username": NAME, "full_name": "<bytes>"}` with the bytes spliced in as they are. */
function orgBody(username: string, fullName: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`{"username":"${username}","full_name":"`), fullName, Buffer.from('"}')]);
}

const invalidSequences: [string, Buffer][] = [
  ['a Latin-1 é', Buffer.from([0x63, 0x61, 0x66, 0xe9])],
  ['an overlong slash (C0 AF)', Buffer.from([0xc0, 0xaf])],
  ['a lone continuation byte', Buffer.from([0x80])],
  ['a truncated three-byte sequence', Buffer.from([0xe2, 0x82])],
  ['an encoded surrogate (ED A0 80)', Buffer.from([0xed, 0xa0, 0x80])],
  ['FF', Buffer.from([0xff])],
];

describe('JSON bodies that are not valid UTF-8', () => {
  let alice: Actor;
  beforeAll(async () => {
    alice = await createUser(service, 'alice');
  });

  it.each(invalidSequences)('POST /orgs with %s: 422, nothing created', async (_what, bytes) => {
    const name = uniqueName('org');
    const response = await rawHttp(service.baseUrl, {
      method: 'POST',
      path: `${api}/orgs`,
      headers: [auth(alice.token), ['Content-Type', 'application/json']],
      body: orgBody(name, bytes),
    });
    expect({ status: response.status, body: response.json }).toEqual({
      status: 422,
      body: errorBody('malformed request body: not valid UTF-8'),
    });
    await service.request
      .get(`${api}/orgs/${name}`)
      .set(...auth(alice.token))
      .expect(404);
  });

  it('PATCH /orgs/{org} with an invalid sequence: 422, the organization unchanged', async () => {
    const org = await createOrg(service, alice, { full_name: 'Before' });
    const patched = await rawHttp(service.baseUrl, {
      method: 'PATCH',
      path: `${api}/orgs/${org.name}`,
      headers: [auth(alice.token), ['Content-Type', 'application/json; charset=utf-8']],
      body: Buffer.concat([Buffer.from('{"full_name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
    });
    expect(patched.status).toBe(422);
    const response = await service.request
      .get(`${api}/orgs/${org.name}`)
      .set(...auth(alice.token))
      .expect(200);
    expect(response.body.full_name).toBe('Before');
  });

  it('valid multi-byte UTF-8 is stored as sent', async () => {
    const name = uniqueName('org');
    const fullName = 'Café Ünïcødé 🚀 ß';
    const created = await rawHttp(service.baseUrl, {
      method: 'POST',
      path: `${api}/orgs`,
      headers: [auth(alice.token), ['Content-Type', 'application/json']],
      body: orgBody(name, Buffer.from(fullName, 'utf8')),
    });
    expect(created.status).toBe(201);
    const response = await service.request
      .get(`${api}/orgs/${name}`)
      .set(...auth(alice.token))
      .expect(200);
    expect(response.body.full_name).toBe(fullName);
  });
});
