import { describeHealthSurface } from '@repo/testing';
import { appWithUnreachableDatabase, testRootUrl, useCodeHostingApi } from './app';

const service = useCodeHostingApi();

describeHealthSurface({
  service,
  withUnreachableDatabase: appWithUnreachableDatabase,
  notFoundBody: { message: expect.any(String), url: `${testRootUrl}api/swagger` },
  readyAnswer: { contentType: /^application\/json/, body: { status: 'ok' } },
  unreachableDatabaseBody: { status: 'database unavailable' },
});

describe("Gitea's health check", () => {
  it("answers Gitea's /api/healthz with pass while the database answers", async () => {
    const response = await service.request.get('/api/healthz').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/health\+json/);
    expect(response.body.status).toBe('pass');
  });
});
