import { connectPrisma } from '../src/db/database';
import { buildApp } from '../src/http/app';
import { createLogger } from '../src/logger';
import { idleStorage, testRootUrl, useCodeHostingApi } from './app';
import supertest from 'supertest';

const service = useCodeHostingApi();

describe('health surface', () => {
  it('answers /livez while the process is up', async () => {
    await service.request.get('/livez').expect(200, { status: 'ok' });
  });

  it('answers /readyz 200 when the database answers', async () => {
    await service.request.get('/readyz').expect(200, { status: 'ok' });
  });

  it('answers /readyz 503 when the database cannot be reached', async () => {
    // Port 1 on loopback refuses connections: a database that is down.
    const database = connectPrisma({ kind: 'postgres', url: 'postgresql://postgres@127.0.0.1:1/none' });
    try {
      const { app } = buildApp({
        database,
        logger: createLogger('silent'),
        rootUrl: testRootUrl,
        storage: idleStorage,
      });
      await supertest(app).get('/readyz').expect(503, { status: 'database unavailable' });
    } finally {
      await database.close();
    }
  });

  it("answers Gitea's /api/healthz with pass while the database answers", async () => {
    const response = await service.request.get('/api/healthz').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/health\+json/);
    expect(response.body.status).toBe('pass');
  });

  it('answers unknown routes with a 404 error body and a request id', async () => {
    const response = await service.request.get('/no-such-route').set('X-Request-Id', 'abc-123').expect(404);
    expect(response.body).toEqual({ message: expect.any(String), url: `${testRootUrl}api/swagger` });
    expect(response.headers['x-request-id']).toBe('abc-123');
  });
});
