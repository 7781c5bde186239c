/**
 * The load generator, run in a process of its own so its CPU use is not counted in a server's and
 * its event loop does not slow them: reads a LoadSpec (JSON file named by argv[2]), runs autocannon,
 * prints one LoadResult as JSON on stdout.
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

async function main(): Promise<void> {
  const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadSpec;
  const statuses: Record<string, number> = {};
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        method: spec.method,
        headers: spec.headers,
        connections: spec.connections,
        duration: spec.duration,
        requests: requestsOf(spec),
        timeout: 30,
      },
      (error, finished) =>
        error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(finished),
    );
    instance.on('response', (_client, statusCode) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
  });
  const failures =
    result.errors +
    result.timeouts +
    Object.entries(statuses)
      .filter(([status]) => !/^2|^304$/.test(status))
      .reduce((sum, [, count]) => sum + count, 0);
  const out: LoadResult = {
    requests: result.requests.total,
    rps: result.requests.total / (result.duration || spec.duration),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    failures,
    statuses,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
