import http from 'node:http';
import { PROCESS_START_MS, holdRequestOpen, httpRequest, type ServiceProcess } from '../service-process';
import type { ServiceHome } from '../service-home';

export interface ServerTimeoutsOptions {
  /** Where the built service runs (a fresh home per suite). */
  serviceHome(): Promise<ServiceHome>;
  /** A path of the app that takes a request body (POST). */
  bodyPath: string;
}

export function describeServerTimeouts({ serviceHome, bodyPath }: ServerTimeoutsOptions): void {
  jest.setTimeout(60_000);

  describe('server timeouts', () => {
    let home: ServiceHome;
    let service: ServiceProcess;

    beforeAll(async () => {
      home = await serviceHome();
      service = await home.start({
        HTTP_REQUEST_TIMEOUT_MS: '1500',
        HTTP_HEADERS_TIMEOUT_MS: '1000',
        SHUTDOWN_DRAIN_MS: '0',
      });
    }, PROCESS_START_MS);

    afterAll(async () => {
      service.kill('SIGTERM');
      await service.exited;
      await home.remove();
    });

    it('closes connections whose body never arrives within the request timeout, and keeps serving', async () => {
      // A few slowloris connections: headers announcing 1000 bytes of body, then silence.
      const closedAfter = await Promise.all(
        Array.from({ length: 5 }, () => holdRequestOpen(service.port, bodyPath, 10_000)),
      );
      for (const milliseconds of closedAfter) {
        expect(milliseconds).toBeGreaterThanOrEqual(1000);
        // The timeout plus Node's checking interval (a quarter of the smaller timeout here).
        expect(milliseconds).toBeLessThan(3500);
      }
      const livez = await httpRequest(service.baseUrl, new http.Agent(), 'GET', '/livez');
      expect(livez.status).toBe(200);
    });

    it('refuses contradicting timeouts at start-up', async () => {
      await expect(
        home.start({ HTTP_REQUEST_TIMEOUT_MS: '1000', HTTP_HEADERS_TIMEOUT_MS: '2000' }),
      ).rejects.toThrow(/HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS/);
    });
  });
}
