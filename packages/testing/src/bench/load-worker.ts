/**
 * The load generator, run in a process of its own so its CPU use is not counted in a server's and
 * its event loop does not slow them: reads a LoadSpec (JSON file named by argv[2]), runs autocannon
 * for its warm-up and duration on the same connections, prints one LoadResult of the measured
 * window (the responses after the warm-up) as JSON on stdout.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { LoadResult, LoadSpec } from './load-spec';

type RequestParams = { path?: string; body?: string; headers?: Record<string, string> };

function requestsOf(spec: LoadSpec): autocannon.Request[] {
  const mode = spec.mode;
  switch (mode.kind) {
    case 'cycle':
      return mode.paths.map((path) => ({ path, ...(mode.body === undefined ? {} : { body: mode.body }) }));
    case 'per-connection': {
      // autocannon clears a connection's context after each pass over `requests` and may build the
      // next request before the last answer is read, so the ETags live here, keyed by the resource
      // id that both the path and the answer's body carry (`"uid"` or `"id"`). The targets outnumber
      // the connections, so no two requests in flight race for one.
      const idOf = (text: string) =>
        /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(text)?.[0];
      const etags = new Map(mode.targets.map((target) => [idOf(target.path) ?? target.path, target.etag]));
      let next = 0;
      return [
        {
          setupRequest: ((request: RequestParams) => {
            const target = mode.targets[next++ % mode.targets.length]!;
            request.path = target.path;
            if (target.body !== undefined) request.body = target.body;
            const etag = etags.get(idOf(target.path) ?? target.path);
            request.headers = { ...request.headers, ...(etag ? { 'If-Match': etag } : {}) };
            return request;
          }) as never,
          onResponse: ((
            _status: number,
            body: string,
            _context: unknown,
            headers: Record<string, string>,
          ) => {
            const etag = headers['etag'] ?? headers['ETag'];
            const id = /"uid":"([^"]+)"/.exec(body)?.[1];
            if (etag && id) etags.set(id, etag);
          }) as never,
        },
      ];
    }
    case 'unique': {
      const run = Date.now().toString(36);
      let counter = 0;
      return [
        {
          setupRequest: ((request: RequestParams) => {
            const n = `${run}${(counter++).toString(36)}`;
            request.path = mode.path;
            request.body = mode.template.replaceAll('{{n}}', n);
            return request;
          }) as never,
        },
      ];
    }
  }
}

/** A status the bench counts as a failure: anything but 2xx and 304. */
function failed(status: number): boolean {
  return !(status === 304 || (status >= 200 && status < 300));
}

/** The latency at percentile `p` (0–100) of `sorted` (ascending), in whole ms; 0 when empty. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!);
}

async function main(): Promise<void> {
  const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadSpec;
  // Only what comes in after the warm-up counts: the connections are open and the server warm.
  // (autocannon's own `warmup` runs before the measured run on connections of its own, so the
  // measured run would open its connections again: the first second of a run at 64 connections,
  // its connections opening on a server idle while the other one ran, took the service's p99 to
  // 3-3.4 times the limit's where the rest of the run's was 1.5-2.2 times.)
  const warmupMs = (spec.warmup ?? 0) * 1000;
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  let errors = 0;
  let warmupFailures = 0;
  const started = performance.now();
  const measuredFrom = started + warmupMs;
  const measuring = () => performance.now() >= measuredFrom;
  // The parent (load.ts) takes its own readings (CPU, statements) as the window opens.
  const opening = setTimeout(() => process.send?.('measuring'), warmupMs);
  await new Promise<void>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        method: spec.method,
        headers: spec.headers,
        connections: spec.connections,
        duration: warmupMs / 1000 + spec.duration,
        requests: requestsOf(spec),
        timeout: 30,
      },
      (error) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (!measuring()) {
        if (failed(statusCode)) warmupFailures += 1;
        return;
      }
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      // Every answer's latency, as autocannon's own figures (it leaves none out by default).
      latencies.push(responseTime);
    });
    // Socket errors and timeouts (autocannon reports a timeout as an error too).
    instance.on('reqError', () => {
      if (measuring()) errors += 1;
      else warmupFailures += 1;
    });
  });
  clearTimeout(opening);
  const measuredSeconds = (performance.now() - measuredFrom) / 1000;
  const requests = Object.values(statuses).reduce((sum, count) => sum + count, 0);
  const failures =
    errors +
    Object.entries(statuses)
      .filter(([status]) => failed(Number(status)))
      .reduce((sum, [, count]) => sum + count, 0);
  latencies.sort((a, b) => a - b);
  const out: LoadResult = {
    requests,
    rps: measuredSeconds > 0 ? requests / measuredSeconds : 0,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max: percentile(latencies, 100),
    failures,
    warmupFailures,
    statuses,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.disconnect?.();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
