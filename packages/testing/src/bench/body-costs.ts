/**
 * What one request body costs a running service, by format: the server's CPU time per request
 * (from /proc, over requests sent one at a time), the time to the answer, and the longest a
 * liveness probe waits while four such requests run at once. An app's body-cost bench
 * (`npm run bench:bodies`) sends each format's most expensive ~1 MiB body it knows of and prints
 * one row per body, with its CPU time as a multiple of the most expensive JSON body's.
 *
 * The target of every row: at most twice the CPU of the JSON row, and the probe never waiting
 * longer than the four requests took together (a body decoded in one block holds the event loop,
 * and so every probe, for as long as it takes).
 *
 * Settings: BENCH_BODY_REQUESTS (requests one at a time per body, 8), BENCH_BODY_ROUNDS (rounds of
 * four at once per body, 3), BENCH_SCENARIOS (substrings of body names).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createThrowawayDatabase, dropDatabase } from './postgres';
import { median, startAppServer, type ServerProcess } from './processes';
import { commit, machine } from './report';
import { cpuTimes, selected } from './rounds';

export interface BodyCase {
  /** What the body holds, e.g. "writers: 1,047,600 declared and sent". */
  name: string;
  /** The row's format: json, xml, gob, multipart. JSON rows are the reference. */
  format: string;
  method: 'POST' | 'PUT' | 'PATCH';
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface BodyCost {
  name: string;
  format: string;
  bytes: number;
  status: number;
  /** Median time to the whole answer, one request at a time. */
  answerMs: number;
  /** The server's CPU time (user + system) per request, over the requests sent one at a time. */
  cpuMs: number;
  /** Four sent at once: the time until the last is answered (the worst round). */
  fourMs: number;
  /** The longest a /livez probe waited while the four ran (the worst round). */
  livezWorstMs: number;
}

export interface BodyCostBench {
  app: string;
  appDir: string;
  environment: NodeJS.ProcessEnv;
  /** The bodies, made once the service runs (with what they need created through its API). */
  cases(server: ServerProcess): Promise<BodyCase[]>;
  /** Path of the liveness probe; /livez when not given. */
  livezPath?: string;
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** Sends one request; resolves with its status once the whole answer is read (or the socket closed). */
function send(
  url: string,
  request: Pick<BodyCase, 'method' | 'path' | 'headers' | 'body'>,
  agent?: http.Agent,
) {
  return new Promise<number>((resolve, reject) => {
    let status = 0;
    const req = http.request(
      `${url}${request.path}`,
      {
        method: request.method,
        headers: { ...request.headers, 'content-length': String(request.body.length) },
        agent: agent ?? false,
      },
      (res) => {
        status = res.statusCode ?? 0;
        res.resume();
        res.once('end', () => resolve(status));
        res.once('error', () => resolve(status));
      },
    );
    // A service that answers before reading the whole body may close the socket under the upload.
    req.once('error', (error) => (status ? resolve(status) : reject(error)));
    req.end(request.body);
  });
}

const livez = (url: string, livezPath: string) =>
  send(url, { method: 'GET' as never, path: livezPath, headers: {}, body: Buffer.alloc(0) }, keepAlive);

async function measure(server: ServerProcess, body: BodyCase, livezPath: string): Promise<BodyCost> {
  const requests = Number(process.env.BENCH_BODY_REQUESTS ?? 8);
  const rounds = Number(process.env.BENCH_BODY_ROUNDS ?? 3);
  const status = await send(server.url, body); // warm-up
  const times: number[] = [];
  const before = cpuTimes([server.pid]).get(server.pid)!;
  for (let index = 0; index < requests; index++) {
    const started = performance.now();
    await send(server.url, body);
    times.push(performance.now() - started);
  }
  const cpuMs = (cpuTimes([server.pid]).get(server.pid)! - before) / requests;
  let fourMs = 0;
  let livezWorstMs = 0;
  for (let round = 0; round < rounds; round++) {
    await livez(server.url, livezPath); // the probe's connection open before the round
    let running = true;
    const probing = (async () => {
      while (running) {
        const started = performance.now();
        await livez(server.url, livezPath);
        livezWorstMs = Math.max(livezWorstMs, performance.now() - started);
      }
    })();
    const started = performance.now();
    await Promise.all(Array.from({ length: 4 }, () => send(server.url, body)));
    fourMs = Math.max(fourMs, performance.now() - started);
    running = false;
    await probing;
  }
  return {
    name: body.name,
    format: body.format,
    bytes: body.body.length,
    status,
    answerMs: median(times),
    cpuMs,
    fourMs,
    livezWorstMs,
  };
}

/** The JSON reference: the most CPU any JSON body cost. */
function reference(rows: BodyCost[]): number {
  return Math.max(...rows.filter((row) => row.format === 'json').map((row) => row.cpuMs));
}

/** Whether a row meets the target (see the file's comment). */
export function meetsTarget(row: BodyCost, jsonCpuMs: number): boolean {
  return row.cpuMs <= 2 * jsonCpuMs && row.livezWorstMs <= row.fourMs;
}

/** The rows as a Markdown table, worst first within each format. */
export function bodyCostTable(rows: BodyCost[]): string {
  const json = reference(rows);
  const formats = [...new Set(rows.map((row) => row.format))];
  const ordered = formats.flatMap((format) =>
    rows.filter((row) => row.format === format).sort((a, b) => b.cpuMs - a.cpuMs),
  );
  const lines = [
    '| format | body (~1 MiB) | status | answer ms | CPU ms/request | × JSON | four at once ms | /livez worst ms | target |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of ordered) {
    lines.push(
      `| ${row.format} | ${row.name} | ${row.status} | ${row.answerMs.toFixed(0)} | ${row.cpuMs.toFixed(0)} | ` +
        `${(row.cpuMs / json).toFixed(2)} | ${row.fourMs.toFixed(0)} | ${row.livezWorstMs.toFixed(0)} | ` +
        `${meetsTarget(row, json) ? 'met' : '✗'} |`,
    );
  }
  return lines.join('\n');
}

/** Builds the service, starts it on a throwaway database, measures every selected body, prints the table. */
export async function benchBodyCosts(bench: BodyCostBench): Promise<BodyCost[]> {
  console.log(`${bench.app} body-cost bench: building the service`);
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: bench.appDir, stdio: 'inherit' });
  const database = await createThrowawayDatabase(`bodies_${bench.app.replaceAll('-', '_')}`);
  try {
    const server = await startAppServer({
      name: 'service',
      appDir: bench.appDir,
      args: ['dist/main.js'],
      databaseUrl: database.url,
      environment: bench.environment,
      timeoutMs: 120_000,
    });
    try {
      const rows: BodyCost[] = [];
      for (const body of await bench.cases(server)) {
        if (body.format !== 'json' && !selected(`${body.format} ${body.name}`)) continue;
        const row = await measure(server, body, bench.livezPath ?? '/livez');
        console.log(
          `  ${row.format} ${row.name}: ${row.status}, ${row.cpuMs.toFixed(0)} CPU ms, answer ${row.answerMs.toFixed(0)} ms, ` +
            `four at once ${row.fourMs.toFixed(0)} ms, /livez worst ${row.livezWorstMs.toFixed(0)} ms`,
        );
        rows.push(row);
      }
      const table = bodyCostTable(rows);
      console.log(`\n${table}`);
      const resultsDir = path.join(bench.appDir, 'bench', 'results');
      mkdirSync(resultsDir, { recursive: true });
      writeFileSync(
        path.join(resultsDir, 'body-costs-latest.json'),
        `${JSON.stringify({ app: bench.app, commit: commit(), date: new Date().toISOString(), machine: machine(), rows, table }, null, 2)}\n`,
      );
      return rows;
    } finally {
      await server.stop();
    }
  } finally {
    await dropDatabase(database.name);
  }
}
