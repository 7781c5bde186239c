import supertest from 'supertest';
import type { TestApp, TestAppInstance } from '../test-app';

export interface HealthSurfaceOptions {
  /** The app under test, on a database that answers. */
  service: TestApp;
  /** The app built over a database that refuses connections (closed by the suite). */
  withUnreachableDatabase(): TestAppInstance;
  /** The body the app answers an unknown route with (jest matchers allowed). */
  notFoundBody: unknown;
  /** What a probe answers when all is well: its content type and body (parsed when JSON). */
  readyAnswer: { contentType: RegExp; body: unknown };
  /** The 503 body of readiness when the database cannot be reached (jest matchers allowed). */
  unreachableDatabaseBody: unknown;
}

export function describeHealthSurface(options: HealthSurfaceOptions): void {
  const { service } = options;

  describe('health surface', () => {
    const { readyAnswer } = options;
    const answered = (response: supertest.Response) => ({
      status: response.status,
      contentType: response.headers['content-type'],
      body: /json/.test(response.headers['content-type'] ?? '') ? response.body : response.text,
    });
    const ready = {
      status: 200,
      contentType: expect.stringMatching(readyAnswer.contentType),
      body: readyAnswer.body,
    };

    it('answers /livez while the process is up', async () => {
      expect(answered(await service.request.get('/livez'))).toEqual(ready);
    });

    it('answers /readyz 200 when the database answers', async () => {
      expect(answered(await service.request.get('/readyz'))).toEqual(ready);
    });

    it('answers /readyz 503 when the database cannot be reached', async () => {
      const down = options.withUnreachableDatabase();
      try {
        await supertest(down.app).get('/readyz').expect(503, options.unreachableDatabaseBody);
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
