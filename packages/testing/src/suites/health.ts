import supertest from 'supertest';
import type { TestApp, TestAppInstance } from '../test-app';

export interface HealthSurfaceOptions {
  /** The app under test, on a database that answers. */
  service: TestApp;
  /** The app built over a database that refuses connections (closed by the suite). */
  withUnreachableDatabase(): TestAppInstance;
  /** The body the app answers an unknown route with (jest matchers allowed). */
  notFoundBody: unknown;
}

export function describeHealthSurface(options: HealthSurfaceOptions): void {
  const { service } = options;

  describe('health surface', () => {
    it('answers /livez while the process is up', async () => {
      await service.request.get('/livez').expect(200, { status: 'ok' });
    });

    it('answers /readyz 200 when the database answers', async () => {
      await service.request.get('/readyz').expect(200, { status: 'ok' });
    });

    it('answers /readyz 503 when the database cannot be reached', async () => {
      const down = options.withUnreachableDatabase();
      try {
        await supertest(down.app).get('/readyz').expect(503, { status: 'database unavailable' });
      } finally {
        await down.close();
      }
    });

    it('answers unknown routes with a 404 error body and a request id', async () => {
      const response = await service.request.get('/no-such-route').set('X-Request-Id', 'abc-123').expect(404);
      expect(response.body).toEqual(options.notFoundBody);
      expect(response.headers['x-request-id']).toBe('abc-123');
    });
  });
}
