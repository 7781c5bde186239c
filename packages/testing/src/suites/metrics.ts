import { Writable } from 'node:stream';
import type { TestApp } from '../test-app';

/** A log destination that keeps every line written to it, for a test to read back. */
export function capturedLogLines(): { destination: Writable; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { destination, lines };
}

/** GET /metrics of an app that answers it without credentials: the Prometheus text. */
export async function scrapeMetrics(service: TestApp): Promise<string> {
  const response = await service.request.get('/metrics').expect(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain/);
  return response.text;
}

/** The value of the first sample of `name` carrying all of `labels`, or undefined. */
export function metricSample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text
    .split('\n')
    .find(
      (candidate) => candidate.startsWith(`${name}{`) && wanted.every((label) => candidate.includes(label)),
    );
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

export interface MetricsAccessOptions {
  /** The app with no METRICS_TOKEN, logging at info into `logLines`. */
  service: TestApp;
  logLines: string[];
  /** The app with METRICS_TOKEN set to `metricsToken`. */
  guarded: TestApp;
  metricsToken: string;
  /** Probe paths besides /metrics that answer 200 and stay out of the access log. */
  probePaths: string[];
  /** A GET the app answers 200 with `authorization`, and logs. */
  loggedPath: string;
  /** A caller's credential: good for the app, not for /metrics. */
  authorization: string;
}

/** Who may read /metrics, and that scraping it leaves no access-log line. */
export function describeMetricsAccess(options: MetricsAccessOptions): void {
  const { service, guarded, logLines, authorization } = options;

  describe('GET /metrics', () => {
    it('needs no credentials, and stays out of the access log like the probes', async () => {
      const before = logLines.length;
      await service.request.get('/metrics').expect(200);
      for (const probe of options.probePaths) await service.request.get(probe).expect(200);
      await service.request.get(options.loggedPath).set('Authorization', authorization).expect(200);
      const lines = logLines.slice(before).map((line) => JSON.parse(line) as { req?: { url?: string } });
      expect(lines.map((line) => line.req?.url)).toEqual([options.loggedPath]);
    });

    it('with METRICS_TOKEN set, answers only that bearer token', async () => {
      await guarded.request.get('/metrics').expect(401);
      await guarded.request.get('/metrics').set('Authorization', authorization).expect(401);
      await guarded.request
        .get('/metrics')
        .set('Authorization', `Bearer ${options.metricsToken}`)
        .expect(200);
    });
  });
}
