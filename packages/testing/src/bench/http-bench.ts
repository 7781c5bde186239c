/**
 * The HTTP bench of an app against its baseline, on PostgreSQL. Builds the service, creates a
 * throwaway database on BENCH_DATABASE_URL's server, lets the service migrate it (its first start),
 * seeds it, times start-up to /readyz, takes the app's own measurements, then loads the service
 * (`node dist/main.js`, NODE_ENV=production, LOG_LEVEL=warn) and the baseline
 * (`node --import tsx bench/baseline/server.ts`, the same environment) in turn (rounds.ts). The
 * database is dropped at the end.
 *
 * Settings: BENCH_DURATION (s measured per run, 3), BENCH_ROUNDS (2), BENCH_WARMUP (s, 1: each run
 * sends requests that long on its connections before its measured window opens, load-worker.ts),
 * BENCH_CONNECTIONS (1,16,64), BENCH_SCENARIOS (substrings of scenario names; "startup" names the
 * start-up measurement), BENCH_STARTS (start-ups timed, 5), BENCH_CPU_PROF=1 (run the service
 * under --cpu-prof; profiles land in bench/results/profiles/), BENCH_NODE_OPTIONS (NODE_OPTIONS of
 * both servers, e.g. `--require` of a script sampling GC pauses). An app's `variants` then run the
 * service against itself under other settings (a second service started with more variables).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Client } from 'pg';
import { withClient } from '../database-template';
import { createThrowawayDatabase, dropDatabase } from './postgres';
import { median, startAppServer, type ServerProcess } from './processes';
import {
  commit,
  machine,
  type BenchResults,
  type Measurement,
  type VariantRow,
  type VariantSection,
} from './report';
import {
  runScenarios,
  runVariantPair,
  selected,
  settingsFromEnvironment,
  type RoundSettings,
  type Scenario,
} from './rounds';

export interface BenchServers {
  service: ServerProcess;
  baseline: ServerProcess;
}

/** What an app's variant sections get: the running servers, and another service to start. */
export interface VariantContext<Seeded> {
  servers: BenchServers;
  seeded: Seeded;
  databaseUrl: string;
  settings: RoundSettings;
  /** Starts the service once more on the same database, with `environment` added to its own. */
  startService(environment: NodeJS.ProcessEnv): Promise<ServerProcess>;
}

export interface HttpBench<Seeded> {
  /** The app's name, as the results file records it. */
  app: string;
  /** The app's folder: both servers run there. */
  appDir: string;
  /** The app's own variables for both servers (PORT, DATABASE_URL, NODE_ENV and LOG_LEVEL are set here). */
  environment: NodeJS.ProcessEnv;
  /** Fills the migrated database; `description` is printed and recorded as the data. */
  seed: { description: string; run(client: Client): Promise<Seeded> };
  /** Measurements other than loads, taken with both servers running, before the loads. */
  measure?(servers: BenchServers, seeded: Seeded): Promise<Measurement[]>;
  scenarios(servers: BenchServers, seeded: Seeded, databaseUrl: string): Promise<Scenario[]>;
  /** Who the loads call as, recorded with the settings. */
  caller: string;
  /** The service compared with itself under other settings, after the scenarios (e.g. events on). */
  variants?(context: VariantContext<Seeded>): Promise<VariantSection[]>;
  /**
   * Scenarios (names of `scenarios`) measured layer by layer after the others ("layers" in
   * BENCH_SCENARIOS): the limit, then its handler under Express 5, then with the app's request
   * observation too (bench/baseline/server.ts's BASELINE_LAYER), then the service, each against the
   * limit, with CPU per request: where the gap is, in the table that shows it.
   */
  layers?: string[];
}

/** The layers between the limit and the service, as BASELINE_LAYER names them, and their rows' labels. */
const LAYERS = [
  { layer: 'express', label: 'Express 5 around the limit' },
  { layer: 'observed', label: "Express 5 and the service's request observation" },
] as const;
/** The layer rows' connections: the speed target's. */
const LAYER_CONNECTIONS = 16;

export async function benchAgainstBaseline<Seeded>(bench: HttpBench<Seeded>): Promise<BenchResults> {
  const settings = settingsFromEnvironment();
  const profile = process.env.BENCH_CPU_PROF === '1';
  const profileDir = path.join(bench.appDir, 'bench', 'results', 'profiles');
  const start = (
    name: 'service' | 'baseline',
    databaseUrl: string,
    args: string[],
    extra: NodeJS.ProcessEnv = {},
  ) =>
    startAppServer({
      name,
      appDir: bench.appDir,
      args,
      databaseUrl,
      environment: { ...bench.environment, ...extra },
    });
  const startService = (databaseUrl: string, withProfile = false, extra: NodeJS.ProcessEnv = {}) =>
    start(
      'service',
      databaseUrl,
      [...(withProfile ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []), 'dist/main.js'],
      extra,
    );
  const startBaseline = (databaseUrl: string, extra: NodeJS.ProcessEnv = {}) =>
    start('baseline', databaseUrl, ['--import', 'tsx', 'bench/baseline/server.ts'], extra);

  console.log(`${bench.app} HTTP bench: building the service`);
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: bench.appDir, stdio: 'inherit' });
  if (profile) mkdirSync(profileDir, { recursive: true });
  const database = await createThrowawayDatabase(`bench_${bench.app.replaceAll('-', '_')}`);
  const measurements: Measurement[] = [];
  try {
    // The first start migrates the empty database (and runs whatever else the service does first).
    await (await startService(database.url)).stop();
    console.log(`seeding ${bench.seed.description}`);
    const seedStarted = performance.now();
    const { seeded, postgres } = await withClient(database.url, async (client) => {
      const seeded = await bench.seed.run(client);
      const version = (await client.query<{ v: string }>(`SELECT current_setting('server_version') AS v`))
        .rows[0]!.v;
      return { seeded, postgres: `PostgreSQL ${version}` };
    });
    console.log(`  seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

    if (selected('startup')) {
      const starts = Number(process.env.BENCH_STARTS ?? 5);
      const service: number[] = [];
      const baseline: number[] = [];
      for (let run = 0; run < starts; run++) {
        const s = await startService(database.url);
        service.push(s.readyMs);
        await s.stop();
        const b = await startBaseline(database.url);
        baseline.push(b.readyMs);
        await b.stop();
      }
      console.log(
        `  start-up to /readyz: service ${median(service).toFixed(0)} ms, baseline ${median(baseline).toFixed(0)} ms`,
      );
      measurements.push({
        name: 'start-up to /readyz (migrated database, median)',
        value: median(service),
        unit: 'ms',
        baseline: median(baseline),
      });
    }

    const servers: BenchServers = {
      service: await startService(database.url, profile),
      baseline: await startBaseline(database.url),
    };
    try {
      if (bench.measure) measurements.push(...(await bench.measure(servers, seeded)));
      const scenarios = await bench.scenarios(servers, seeded, database.url);
      const results = await runScenarios(
        scenarios,
        {
          service: { name: 'service', url: servers.service.url },
          baseline: { name: 'baseline', url: servers.baseline.url },
        },
        settings,
      );
      const layers =
        bench.layers && selected('layers')
          ? [await layerSection(bench, servers, database.url, scenarios, settings, startBaseline)]
          : [];
      const variants = bench.variants
        ? await bench.variants({
            servers,
            seeded,
            databaseUrl: database.url,
            settings,
            startService: (environment) => startService(database.url, profile, environment),
          })
        : [];
      return {
        app: bench.app,
        date: new Date().toISOString(),
        commit: commit(),
        machine: machine(postgres),
        settings: { ...settings, data: bench.seed.description, caller: bench.caller },
        scenarios: results,
        measurements,
        ...(variants.length || layers.length ? { variants: [...layers, ...variants] } : {}),
      };
    } finally {
      await servers.service.stop();
      await servers.baseline.stop();
    }
  } finally {
    await dropDatabase(database.name);
  }
}

/**
 * The layer rows: for each of `bench.layers`, the limit against each layer around it and against
 * the service, at 16 connections, with the CPU each request costs the server and the database.
 */
async function layerSection<Seeded>(
  bench: HttpBench<Seeded>,
  servers: BenchServers,
  databaseUrl: string,
  scenarios: Scenario[],
  settings: RoundSettings,
  startBaseline: (databaseUrl: string, extra: NodeJS.ProcessEnv) => Promise<ServerProcess>,
): Promise<VariantSection> {
  const layered = await Promise.all(
    LAYERS.map(async ({ layer, label }) => ({
      label,
      server: await startBaseline(databaseUrl, { BASELINE_LAYER: layer }),
    })),
  );
  const backends = () =>
    withClient(databaseUrl, async (client) => {
      const { rows } = await client.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      return rows.map((row) => row.pid);
    });
  const target = (server: ServerProcess, scenario: Scenario) => ({
    url: server.url,
    load: scenario.load,
    processes: async () => [server.pid, ...(await backends())],
  });
  try {
    const rows: VariantRow[] = [];
    for (const name of bench.layers ?? []) {
      const scenario = scenarios.find((candidate) => candidate.name === name);
      if (!scenario) throw new Error(`layers: no scenario named ${name}`);
      const sides = [...layered, { label: 'the service', server: servers.service }];
      for (const side of sides) {
        const row = await runVariantPair(
          `${name}: ${side.label}`,
          { off: target(servers.baseline, scenario), on: target(side.server, scenario) },
          LAYER_CONNECTIONS,
          settings,
        );
        rows.push(row);
      }
    }
    return {
      title: 'The gap to the limit, layer by layer',
      offLabel: 'limit',
      onLabel: 'layer',
      rows,
      notes: [
        "Each row loads the limit and one layer in alternating rounds: on/off is the layer's share of the limit's req/s.",
        "The CPU column is the server's and the database's backends' CPU per request (from /proc), less at the mercy of a shared machine than req/s.",
      ],
    };
  } finally {
    await Promise.all(layered.map(({ server }) => server.stop()));
  }
}
