import { useCodeHostingApi } from './app';
import { api, auth, createUser, type Actor } from './actors';
import { errorBody } from './organization-fixtures';
import { rawHttp } from '@repo/testing';

const service = useCodeHostingApi();

// Express's router decodes path parameters with decodeURIComponent; a malformed escape throws a
// URIError marked `status: 400` without `expose` (once a 500). It is the client's mistake:
// code-hosting-api's validation status, 422, with Gitea's error body.
describe.each(['%ZZ', '%FF', '%C0%AF', '%', 'abc%E0%A4%A'])(
  'a badly percent-encoded segment %s',
  (segment) => {
    let alice: Actor;
    beforeAll(async () => {
      alice = await createUser(service, 'alice');
    });

    it.each([
      ['GET', `${api}/orgs/${segment}`],
      ['PATCH', `${api}/orgs/${segment}`],
      ['DELETE', `${api}/orgs/${segment}`],
      ['POST', `${api}/orgs/${segment}/rename`],
      ['GET', `${api}/users/${segment}/orgs`],
      ['GET', `${api}/repos/${segment}/anvil/issues/1`],
      ['PUT', `${api}/teams/1/members/${segment}`],
      ['GET', `/attachments/${segment}`],
    ])('%s %s: 422 with the error body, without echoing the path', async (method, path) => {
      const response = await rawHttp(service.baseUrl, {
        method,
        path,
        headers: [auth(alice.token), ['Content-Type', 'application/json']],
        body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
      });
      expect({ status: response.status, body: response.json }).toEqual({
        status: 422,
        body: errorBody('malformed path: a segment is not valid percent-encoded UTF-8'),
      });
    });
  },
);
