/**
 * The bench harness (src/bench/): the folds and comparisons the results rest on, and one real load
 * through the load process, whose per-connection mode must carry each resource's latest ETag.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  bodyCostTable,
  compareResults,
  median,
  meetsTarget,
  runLoad,
  selected,
  summarize,
  type BenchResults,
  type BodyCost,
} from '../src/bench';

const results = (rps: number, p99: number, memoryMiB: number): BenchResults => ({
  app: 'app',
  date: '2026-01-01T00:00:00.000Z',
  commit: 'abc',
  machine: { cpu: 'cpu', cores: 2, memoryGiB: 4, node: 'v20', os: 'Linux' },
  settings: {},
  scenarios: [{ scenario: 'GET /x', connections: 16, service: { rps, p50: 1, p99, failures: 0 } }],
  measurements: [{ name: 'peak RSS', value: memoryMiB, unit: 'MiB' }],
});

describe('the bench harness', () => {
  it('takes the median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('selects scenarios by the substrings of BENCH_SCENARIOS, all when unset', () => {
    const saved = process.env.BENCH_SCENARIOS;
    try {
      delete process.env.BENCH_SCENARIOS;
      expect(selected('startup')).toBe(true);
      process.env.BENCH_SCENARIOS = 'Settings, startup';
      expect([selected('GET /projects/{uid}/settings'), selected('startup'), selected('POST /x')]).toEqual([
        true,
        true,
        false,
      ]);
    } finally {
      if (saved === undefined) delete process.env.BENCH_SCENARIOS;
      else process.env.BENCH_SCENARIOS = saved;
    }
  });

  it('flags a throughput loss or a memory growth over 10%, and not a smaller change', () => {
    expect(compareResults(results(1000, 10, 100), results(950, 10.5, 105)).regressions).toBe(0);
    const worse = compareResults(results(1000, 10, 100), results(850, 10, 120));
    expect(worse.regressions).toBe(2);
    expect(worse.text).toContain('REGRESSION');
  });

  it("holds each body's CPU to twice the costliest JSON body's, and /livez to the four requests' time", () => {
    const row = (format: string, name: string, cpuMs: number, livezWorstMs = 10): BodyCost => ({
      name,
      format,
      bytes: 1_048_000,
      status: 400,
      answerMs: cpuMs,
      cpuMs,
      fourMs: 4 * cpuMs,
      livezWorstMs,
    });
    const rows = [
      row('json', 'cheap', 20),
      row('json', 'nested', 200),
      row('gob', 'within', 400),
      row('gob', 'past', 420),
      row('xml', 'probe waited', 100, 401),
    ];
    expect(rows.map((each) => meetsTarget(each, 200))).toEqual([true, true, true, false, false]);
    const lines = bodyCostTable(rows).split('\n');
    // Worst first within each format, CPU as a multiple of the costliest JSON body's.
    expect(lines.slice(2).map((line) => line.split(' | ').slice(0, 2).join(' '))).toEqual([
      '| json nested',
      '| json cheap',
      '| gob past',
      '| gob within',
      '| xml probe waited',
    ]);
    expect(lines[4]).toContain('| 420 | 2.10 |');
    expect(lines[4]).toMatch(/✗ \|$/);
    expect(lines[5]).toMatch(/met \|$/);
  });

  it('summarizes a CPU profile by function and package, leaving idle time out', () => {
    const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });
    const text = summarize({
      nodes: [
        { id: 1, callFrame: frame('(idle)', '') },
        { id: 2, callFrame: frame('parse', '/repo/node_modules/.pnpm/x@1/node_modules/x/index.js') },
        { id: 3, callFrame: frame('handler', '/repo/apps/a/dist/main.js') },
      ],
      samples: [1, 2, 2, 2, 3],
      timeDeltas: [1_000_000, 250_000, 250_000, 250_000, 250_000],
      startTime: 0,
      endTime: 2_000_000,
    });
    expect(text).toContain('2.0 s sampled, 1.0 s busy');
    expect(text).toMatch(/75\.0% {2}x\n/);
    expect(text).toMatch(/25\.0% {2}\(app\)/);
  });

  it("runs a load in its own process, each request sending its resource's latest ETag", async () => {
    // Two resources whose revision each write moves on: a stale If-Match answers 412.
    const revisions = new Map<string, number>();
    const server = http.createServer((req, res) => {
      const id = /[0-9a-f-]{36}/.exec(req.url ?? '')![0];
      const revision = revisions.get(id) ?? 0;
      req.resume();
      req.on('end', () => {
        if (req.headers['if-match'] !== `"r${revision}"`) {
          res.writeHead(412).end();
          return;
        }
        revisions.set(id, revision + 1);
        res.writeHead(200, { etag: `"r${revision + 1}"`, 'content-type': 'application/json' });
        res.end(JSON.stringify({ uid: id }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const ids = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
      const result = await runLoad({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        mode: {
          kind: 'per-connection',
          targets: ids.map((id) => ({ path: `/r/${id}`, etag: '"r0"', body: '{}' })),
        },
        connections: 1,
        duration: 1,
      });
      expect(result.requests).toBeGreaterThan(2);
      expect({ failures: result.failures, statuses: Object.keys(result.statuses) }).toEqual({
        failures: 0,
        statuses: ['200'],
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
  it('measures only after the warm-up, on the connections the warm-up opened', async () => {
    // A server slow (1 s) and failing for 600 ms from a run's first request, then quick: a cold
    // server. Its cold answers end 1.6 s after the first request, well inside a 3 s warm-up.
    let coldSince: number | undefined;
    let connections = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      coldSince ??= performance.now();
      if (performance.now() - coldSince < 600) {
        setTimeout(() => res.writeHead(503).end(), 1000);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const load = async (duration: number, warmup?: number) => {
      coldSince = undefined;
      connections = 0;
      let opened = false;
      const result = await runLoad(
        {
          url,
          method: 'GET',
          headers: {},
          mode: { kind: 'cycle', paths: ['/'] },
          connections: 4,
          duration,
          ...(warmup === undefined ? {} : { warmup }),
        },
        () => (opened = true),
      );
      return { ...result, opened };
    };
    try {
      const cold = await load(2);
      expect(cold.failures).toBeGreaterThan(0);
      expect(cold.max).toBeGreaterThanOrEqual(1000);
      const warmed = await load(1, 3);
      expect({ failures: warmed.failures, statuses: Object.keys(warmed.statuses) }).toEqual({
        failures: 0,
        statuses: ['200'],
      });
      expect(warmed.warmupFailures).toBeGreaterThan(0);
      // The cold answers' latencies are the warm-up's: none of them is in the figures.
      expect(warmed.max).toBeLessThan(1000);
      expect(warmed.opened).toBe(true);
      // The rate is of the measured window (a second, and autocannon's last tick), not of the whole run.
      expect(warmed.rps).toBeLessThanOrEqual(warmed.requests);
      expect(warmed.rps).toBeGreaterThan(warmed.requests / 2);
      // The same connections throughout (autocannon's own `warmup` opens new ones for the measured run).
      expect(connections).toBe(4);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
