import { useCodeHostingApi } from './app';
import { api, auth, createUser, type Actor } from './actors';
import { issueFixture, uploaded, type IssueFixture } from './attachment-fixtures';
import { errorBody } from './organization-fixtures';

const service = useCodeHostingApi();

// Ids no row can have: past int64 (it once wrapped to -1), past 2^53 (it would round to a
// neighbour), negative, and not decimal at all. Each is "not found", named as it was asked.
const unrepresentable = [
  '9223372036854775808',
  '18446744073709551617',
  '9007199254740993',
  '99999999999999999999999999999999',
  '-1',
  '1e3',
  '0x10',
  'abc',
];

describe('numeric path parameters (team ids, issue indexes, attachment ids)', () => {
  let owner: Actor;
  let fixture: IssueFixture;
  let attachmentId: number;
  beforeAll(async () => {
    owner = await createUser(service, 'owner');
    fixture = await issueFixture(service, { owner });
    attachmentId = (await uploaded(service, fixture.assets, owner.token)).id;
  });

  it.each(unrepresentable)('issue index %s: 404 naming the index asked for', async (index) => {
    const path = `${api}/repos/${fixture.org}/${fixture.repo}/issues/${index}`;
    const message = `issue ${index} does not exist in ${fixture.org}/${fixture.repo}`;
    for (const response of [
      await service.request.get(path).set(...auth(owner.token)),
      await service.request
        .patch(path)
        .set(...auth(owner.token))
        .send({ title: 'x' }),
      await service.request.get(`${path}/assets`).set(...auth(owner.token)),
      await service.request.get(`${path}/assets/${attachmentId}`).set(...auth(owner.token)),
    ]) {
      expect({ status: response.status, body: response.body }).toEqual({
        status: 404,
        body: errorBody(message),
      });
    }
  });

  it.each(unrepresentable)('attachment id %s: 404 naming the id asked for', async (id) => {
    const path = `${fixture.assets}/${id}`;
    const message = `attachment ${id} does not exist on issue ${fixture.index}`;
    for (const response of [
      await service.request.get(path).set(...auth(owner.token)),
      await service.request
        .patch(path)
        .set(...auth(owner.token))
        .send({ name: 'x.txt' }),
      await service.request.delete(path).set(...auth(owner.token)),
    ]) {
      expect({ status: response.status, body: response.body }).toEqual({
        status: 404,
        body: errorBody(message),
      });
    }
  });

  it.each(unrepresentable)('team id %s: 404 naming the id asked for', async (id) => {
    const path = `${api}/teams/${id}/members/${owner.username}`;
    for (const response of [
      await service.request.put(path).set(...auth(owner.token)),
      await service.request.delete(path).set(...auth(owner.token)),
    ]) {
      expect({ status: response.status, body: response.body }).toEqual({
        status: 404,
        body: errorBody(`team ${id} does not exist`),
      });
    }
  });

  it('a leading zero still names the row (007 is 7)', async () => {
    await service.request
      .get(`${api}/repos/${fixture.org}/${fixture.repo}/issues/00${fixture.index}`)
      .set(...auth(owner.token))
      .expect(200);
  });
});
