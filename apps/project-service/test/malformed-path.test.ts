import { useProjectService } from './app';
import { admin } from './project-fixtures';

const service = useProjectService();

// Express's router decodes path parameters with decodeURIComponent; a malformed escape throws
// a URIError the router marks `status: 400` but not `expose`. It is the client's mistake: 400.
describe.each(['%ZZ', '%FF', '%C0%AF', '%', 'abc%E0%A4%A'])(
  'a badly percent-encoded segment %s',
  (segment) => {
    it.each([
      ['get', `/projects/${segment}`],
      ['get', `/projects/${segment}/settings`],
      ['put', `/projects/${segment}`],
      ['delete', `/projects/${segment}`],
    ] as const)('%s %s is a 400 with the error body', async (method, path) => {
      const response = await service.request[method](path).set('Authorization', admin()).expect(400);
      expect(response.body).toEqual({ code: '400', message: expect.any(String) });
      // The message says what was wrong without echoing the raw path back.
      expect(response.body.message).toMatch(/percent-encod/);
    });
  },
);
