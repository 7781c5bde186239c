import { useCodeHostingApi } from './app';
import { adminAuthorization, api } from './actors';
import { rawHttp, type RawRequest } from '@repo/testing';

// As Gitea's binding reads it, a JSON write without a body is the empty object: the same
// answer (422 naming the first required field) whether the client sent no body at all
// (curl -X POST -H 'Content-Type: application/json'), an empty one (curl -d ''), an empty
// chunked one, or `{}`.
const service = useCodeHostingApi();

const FRAMINGS: Record<string, Pick<RawRequest, 'headers' | 'body'>> = {
  'no body': {},
  'Content-Length: 0': { headers: [['Content-Length', '0']] },
  'empty chunked body': { headers: [['Transfer-Encoding', 'chunked']], body: '0\r\n\r\n' },
  '{}': { body: '{}' },
};

const WRITES: [string, string][] = [
  ['POST', `${api}/admin/users`],
  ['POST', `${api}/orgs`],
  ['POST', `${api}/user/repos`],
];

describe('a JSON write without a body', () => {
  it.each(WRITES)('%s %s answers as for {}', async (method, path) => {
    const outcomes: Record<string, { status: number; body: unknown }> = {};
    for (const [framing, { headers = [], body }] of Object.entries(FRAMINGS)) {
      const response = await rawHttp(service.baseUrl, {
        method,
        path,
        headers: [['Authorization', adminAuthorization], ['Content-Type', 'application/json'], ...headers],
        body,
      });
      outcomes[framing] = { status: response.status, body: response.json };
    }
    const asEmptyObject = outcomes['{}'];
    expect(asEmptyObject?.status).toBe(422);
    expect(outcomes).toEqual(
      Object.fromEntries(Object.keys(FRAMINGS).map((framing) => [framing, asEmptyObject])),
    );
  });
});
