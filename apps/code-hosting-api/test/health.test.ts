import { describeHealthSurface } from '@repo/testing';
import { connectPrisma } from '../src/db/database';
import { buildApp } from '../src/http/app';
import { createLogger } from '../src/logger';
import { idleStorage, testRootUrl, useCodeHostingApi } from './app';

const service = useCodeHostingApi();

describeHealthSurface({
  service,
  withUnreachableDatabase: () => {
    // Port 1 on loopback refuses connections: a database that is down.
    const database = connectPrisma({ kind: 'postgres', url: 'postgresql://postgres@127.0.0.1:1/none' });
    const { app } = buildApp({
      database,
      logger: createLogger('silent'),
      rootUrl: testRootUrl,
      storage: idleStorage,
    });
    return { app, close: () => database.close() };
  },
  notFoundBody: { message: expect.any(String), url: `${testRootUrl}api/swagger` },
});

describe("Gitea's health check", () => {
  it("answers Gitea's /api/healthz with pass while the database answers", async () => {
    const response = await service.request.get('/api/healthz').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/health\+json/);
    expect(response.body.status).toBe('pass');
  });
});
