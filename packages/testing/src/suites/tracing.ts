import http from 'node:http';
import { PROCESS_START_MS, httpRequest, startOtlpReceiver, type ServiceProcess } from '../service-process';
import type { ServiceHome } from '../service-home';
import { credentialLeaks } from './log-secrets';
import {
  exportedServerUrls,
  misplacedCredentialRequests,
  sendMisplacedCredentials,
  type MisplacedCredentials,
} from './misplaced-credentials';

export interface TracingOptions {
  /** Where the built service runs (a fresh home per suite). */
  serviceHome(): Promise<ServiceHome>;
  /** The name the service gives its spans. */
  serviceName: string;
  /** A GET the app answers 200 to with `headers`; the suite adds a credential-like query parameter. */
  path: string;
  headers: Record<string, string>;
  /** The app's credentials, put where the service does not read them (misplaced-credentials.ts). */
  misplacedCredentials(service: ServiceProcess): Promise<MisplacedCredentials>;
}

export function describeTracing({
  serviceHome,
  serviceName,
  path,
  headers,
  misplacedCredentials,
}: TracingOptions): void {
  jest.setTimeout(60_000);
  const pathname = new URL(path, 'http://localhost').pathname;
  const withSecret = `${path}${path.includes('?') ? '&' : '?'}access_token=span-secret-1`;

  describe('tracing with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
    let home: ServiceHome;
    let service: ServiceProcess;
    let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;

    beforeAll(async () => {
      receiver = await startOtlpReceiver();
      home = await serviceHome();
      service = await home.start({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        SHUTDOWN_DRAIN_MS: '0',
      });
      // Building and starting the service: on a busy CI machine (both apps' suites at once) this
      // took over a minute once; a guard against hanging, not a speed check.
    }, PROCESS_START_MS);

    afterAll(async () => {
      service?.kill('SIGTERM');
      await service?.exited;
      await receiver.close();
      await home.remove();
    });

    it('exports a span for a request, and its log lines carry the trace id and request id', async () => {
      const response = await httpRequest(service.baseUrl, new http.Agent(), 'GET', withSecret, {
        headers: { ...headers, 'X-Request-Id': 'traced-request-1' },
      });
      expect(response.status).toBe(200);
      const deadline = Date.now() + 10_000;
      // The span and the access-log line arrive independently (the log through stdout): wait for both.
      const accessLineOf = () =>
        service.output
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .find((line) => line['request_id'] === 'traced-request-1' && line['res'] !== undefined);
      // The server span (the one with the URL's query) ends last and may come in a later export
      // than the Express spans that also name the path: wait for it, redacted or not.
      const serverSpanExported = () =>
        receiver.bodies.some((body) => body.includes('access_token=') && body.includes(pathname));
      while ((!serverSpanExported() || !accessLineOf()) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const accessLine = accessLineOf();
      const exported = receiver.bodies.join('\n');
      expect(exported).toContain(serviceName);
      expect(accessLine).toBeDefined();
      const traceId = accessLine?.['trace_id'];
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      // The exporter sends JSON: the span's traceId is the same as the log's (hex).
      expect(exported).toContain(String(traceId));
      // The URL goes out with the span, its credential-like query parameters redacted as in the logs.
      expect(exported).toContain('access_token=[redacted]');
      expect(exported).not.toContain('span-secret-1');
    });

    it('masks credentials sent where the service does not read them in every span, as in the logs', async () => {
      const credentials = await misplacedCredentials(service);
      const { requests, secrets } = misplacedCredentialRequests(credentials);
      await sendMisplacedCredentials(service.baseUrl, requests);
      // Each request's server span, told apart by its `case` query parameter, with the URL the
      // access log shows: only the credential masked.
      const expected = requests.map((request) => request.loggedUrl);
      const missing = () => {
        const exported = new Set(exportedServerUrls(receiver.bodies));
        return expected.filter((url) => !exported.has(url));
      };
      const deadline = Date.now() + 15_000;
      while (missing().length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(missing()).toEqual([]);
      expect(credentialLeaks(receiver.bodies.join('\n'), secrets)).toEqual([]);
    });
  });
}
