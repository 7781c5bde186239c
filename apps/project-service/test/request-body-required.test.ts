import { useProjectService } from './app';
import { admin, rootUid } from './project-fixtures';
import { rawHttp, type RawRequest } from '@repo/testing';

// A write without a body is refused the same way whether the client sent no body at all
// (no Content-Length, no Transfer-Encoding: curl -X POST -H 'Content-Type: …') or an empty one
// (curl -d ''): 400 "request body is required", in every media type the service reads.
const service = useProjectService();

const MEDIA_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/xml',
  'text/xml',
  'application/gob',
  'application/x-gob',
];

/** The same empty body, framed each way HTTP/1.1 allows. */
const FRAMINGS: Record<string, [string, string][]> = {
  'no body': [],
  'Content-Length: 0': [['Content-Length', '0']],
  'empty chunked body': [['Transfer-Encoding', 'chunked']],
};

describe('a write without a body', () => {
  it.each(MEDIA_TYPES)('is a 400 "request body is required" with Content-Type %s', async (mediaType) => {
    const root = await rootUid(service);
    const targets: [string, string][] = [
      ['POST', '/projects'],
      ['PUT', `/projects/${root}`],
      ['PUT', `/projects/${root}/settings`],
    ];
    const outcomes = [];
    for (const [method, path] of targets) {
      for (const [framing, headers] of Object.entries(FRAMINGS)) {
        const request: RawRequest = {
          method,
          path,
          headers: [['Authorization', admin()], ['Content-Type', mediaType], ['If-Match', '*'], ...headers],
          body: framing === 'empty chunked body' ? '0\r\n\r\n' : undefined,
        };
        const response = await rawHttp(service.baseUrl, request);
        outcomes.push({ method, path, framing, status: response.status, body: response.json });
      }
    }
    expect(outcomes).toEqual(
      outcomes.map(({ method, path, framing }) => ({
        method,
        path,
        framing,
        status: 400,
        body: { code: '400', message: 'request body is required' },
      })),
    );
  });

  it('is still a 415 with a body of a type no codec reads', async () => {
    const response = await rawHttp(service.baseUrl, {
      method: 'POST',
      path: '/projects',
      headers: [
        ['Authorization', admin()],
        ['Content-Type', 'text/plain'],
      ],
      body: 'hello',
    });
    expect(response.status).toBe(415);
  });
});
