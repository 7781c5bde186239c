/**
 * The scale bench of an app: the same operations on the same kind of data at two sizes (1× and
 * 100×), side by side in one run, so a query that is fast on a small database and slow on a big
 * one shows as a ratio. For each size: a throwaway database on BENCH_DATABASE_URL's server,
 * migrated by the service's first start, seeded with SQL and analyzed, then the built service
 * (`node dist/main.js`, NODE_ENV=production, LOG_LEVEL=warn) loaded with each probe in turn: one
 * connection (latency, not throughput) for BENCH_DURATION seconds after BENCH_WARMUP: its mean
 * latency is the run's duration over its requests (autocannon's percentiles are whole
 * milliseconds, too coarse for a 2 ms read), beside autocannon's p99. The app's
 * own measurements (memory of an unpaged list, …) are taken on the same server. Prints the table
 * and writes bench/results/scale-latest.json.
 *
 * Settings: BENCH_DURATION (s per probe, 3), BENCH_WARMUP (s, 1), BENCH_SCENARIOS (substrings of
 * probe names).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from 'pg';
import { withClient } from '../database-template';
import { runLoad } from './load';
import type { LoadMode, LoadResult, LoadSpec } from './load-spec';
import { createThrowawayDatabase, dropDatabase } from './postgres';
import { startAppServer, type ServerProcess } from './processes';
import { commit, machine } from './report';
import { selected } from './rounds';

export interface ScaleProbe {
  name: string;
  method: LoadSpec['method'];
  headers: Record<string, string>;
  mode: LoadMode;
  /**
   * The largest 100× / 1× ratio of the mean latency the probe may show (1.5 when not given); null
   * for a probe whose cost grows with the data by the API's design (an offset-paged deep page), shown
   * without a target so that the README can say what it costs.
   */
  target?: number | null;
}

/** A figure the app measures itself on each size (not a latency): memory, a whole list's time. */
export interface ScaleMeasurement {
  name: string;
  value: number;
  unit: string;
  /** The most the value may be at 100× (for memory: the bound the README promises). */
  limit?: number;
}

export interface Scale<Seeded> {
  /** "1×", "100×". */
  label: string;
  description: string;
  seed(client: Client): Promise<Seeded>;
}

export interface ScaleBench<Seeded> {
  app: string;
  appDir: string;
  environment: NodeJS.ProcessEnv;
  /** The small size first, then the large one. */
  scales: [Scale<Seeded>, Scale<Seeded>];
  probes(seeded: Seeded, databaseUrl: string): Promise<ScaleProbe[]>;
  measure?(server: ServerProcess, seeded: Seeded, label: string): Promise<ScaleMeasurement[]>;
}

/** A probe's figures: autocannon's, and the mean latency of its one connection. */
type ProbeResult = LoadResult & { meanMs: number };

interface SizeResult {
  label: string;
  description: string;
  seedSeconds: number;
  probes: Record<string, ProbeResult>;
  targets: Record<string, number | null>;
  measurements: ScaleMeasurement[];
}

const DEFAULT_TARGET = 1.5;

async function runSize<Seeded>(bench: ScaleBench<Seeded>, scale: Scale<Seeded>): Promise<SizeResult> {
  const database = await createThrowawayDatabase(`scale_${bench.app.replaceAll('-', '_')}`);
  const start = () =>
    startAppServer({
      name: 'service',
      appDir: bench.appDir,
      args: ['dist/main.js'],
      databaseUrl: database.url,
      environment: bench.environment,
      timeoutMs: 120_000,
    });
  try {
    await (await start()).stop();
    console.log(`${scale.label}: seeding ${scale.description}`);
    const started = performance.now();
    const seeded = await withClient(database.url, async (client) => {
      const result = await scale.seed(client);
      await client.query('VACUUM ANALYZE');
      return result;
    });
    const seedSeconds = (performance.now() - started) / 1000;
    console.log(`  seeded and analyzed in ${seedSeconds.toFixed(1)} s`);
    const server = await start();
    try {
      const duration = Number(process.env.BENCH_DURATION ?? 3);
      const warmup = Number(process.env.BENCH_WARMUP ?? 1);
      const probes: Record<string, ProbeResult> = {};
      const targets: Record<string, number | null> = {};
      for (const probe of await bench.probes(seeded, database.url)) {
        if (!selected(probe.name)) continue;
        const spec = (seconds: number): LoadSpec => ({
          url: server.url,
          method: probe.method,
          headers: probe.headers,
          mode: probe.mode,
          connections: 1,
          duration: seconds,
        });
        if (warmup > 0) await runLoad(spec(warmup));
        const result = await runLoad(spec(duration));
        if (result.failures > 0) {
          throw new Error(
            `${scale.label} ${probe.name}: ${result.failures} failures ${JSON.stringify(result.statuses)}`,
          );
        }
        const meanMs = (duration * 1000) / result.requests;
        probes[probe.name] = { ...result, meanMs };
        targets[probe.name] = probe.target === undefined ? DEFAULT_TARGET : probe.target;
        console.log(
          `  ${probe.name}: mean ${meanMs.toFixed(2)} ms, p99 ${result.p99.toFixed(0)} ms (${result.requests} requests)`,
        );
      }
      const measurements = bench.measure ? await bench.measure(server, seeded, scale.label) : [];
      return {
        label: scale.label,
        description: scale.description,
        seedSeconds,
        probes,
        targets,
        measurements,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await dropDatabase(database.name);
  }
}

const pad = (text: string, width: number) => text.padEnd(width);
const fixed = (value: number | undefined, digits = 2) => (value === undefined ? '—' : value.toFixed(digits));

/** The table of one run: each probe's latencies at both sizes and their ratio, then the app's figures. */
export function scaleTable(small: SizeResult, large: SizeResult): string {
  const names = Object.keys(large.probes);
  const width = Math.max(40, ...names.map((name) => name.length + 2));
  const lines = [
    `${pad('operation (1 connection, ms)', width)}${pad(`mean ${small.label}`, 11)}${pad(`mean ${large.label}`, 11)}${pad('ratio', 8)}${pad('target', 8)}${pad(`p99 ${small.label}`, 11)}${pad(`p99 ${large.label}`, 11)}`,
  ];
  for (const name of names) {
    const a = small.probes[name];
    const b = large.probes[name]!;
    const ratio = a ? b.meanMs / a.meanMs : undefined;
    // Set with each measured probe (runSize), so every name here has one.
    const target = large.targets[name] ?? null;
    const verdict = ratio === undefined || target === null || ratio <= target ? '' : '  ✗';
    lines.push(
      `${pad(name, width)}${pad(fixed(a?.meanMs), 11)}${pad(fixed(b.meanMs), 11)}${pad(`${fixed(ratio)}×`, 8)}${pad(target === null ? '—' : `≤${target}×`, 8)}${pad(fixed(a?.p99, 0), 11)}${pad(fixed(b.p99, 0), 11)}${verdict}`,
    );
  }
  for (const measurement of large.measurements) {
    const before = small.measurements.find((m) => m.name === measurement.name);
    const over = measurement.limit !== undefined && measurement.value > measurement.limit ? '  ✗' : '';
    lines.push(
      `${pad(measurement.name, width)}${pad(`${fixed(before?.value, 1)} ${measurement.unit}`, 11)}${pad(`${fixed(measurement.value, 1)} ${measurement.unit}`, 19)}${measurement.limit === undefined ? '' : `≤${measurement.limit} ${measurement.unit}`}${over}`,
    );
  }
  return lines.join('\n');
}

export async function benchAtScales<Seeded>(bench: ScaleBench<Seeded>): Promise<void> {
  console.log(`${bench.app} scale bench: building the service`);
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: bench.appDir, stdio: 'inherit' });
  const small = await runSize(bench, bench.scales[0]);
  const large = await runSize(bench, bench.scales[1]);
  const table = scaleTable(small, large);
  console.log(
    `\n${bench.app}: ${small.label} = ${small.description}; ${large.label} = ${large.description}\n`,
  );
  console.log(table);
  const resultsDir = path.join(bench.appDir, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    path.join(resultsDir, 'scale-latest.json'),
    `${JSON.stringify({ app: bench.app, commit: commit(), date: new Date().toISOString(), machine: machine(), sizes: [small, large], table }, null, 2)}\n`,
  );
}
