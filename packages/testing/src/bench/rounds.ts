/**
 * Loads the service and the baseline in turn, scenario by scenario, at each connection count, over
 * several rounds (the order alternating each round, so neither always runs on a warmer machine),
 * and folds the rounds into one ScenarioResult each.
 */
import { readFileSync } from 'node:fs';
import { runLoad } from './load';
import type { LoadResult, LoadSpec } from './load-spec';
import type { ScenarioResult, VariantRow } from './report';
import { median } from './processes';

export interface Target {
  name: 'service' | 'baseline';
  url: string;
}

export interface Scenario {
  name: string;
  /** The load for one run against `url` (may read the database, e.g. the current ETags). */
  load(url: string, connections: number): Promise<Omit<LoadSpec, 'url' | 'connections' | 'duration'>>;
  /** Connection counts; the bench's list when absent. */
  connections?: number[];
  /** Without a baseline, only the service is loaded. */
  serviceOnly?: boolean;
}

export interface RoundSettings {
  duration: number;
  warmup: number;
  rounds: number;
  connections: number[];
}

export const settingsFromEnvironment = (): RoundSettings => ({
  duration: Number(process.env.BENCH_DURATION ?? 3),
  warmup: Number(process.env.BENCH_WARMUP ?? 1),
  rounds: Number(process.env.BENCH_ROUNDS ?? 2),
  connections: (process.env.BENCH_CONNECTIONS ?? '1,16,64').split(',').map(Number),
});

/**
 * BENCH_SCENARIOS: comma-separated substrings; a scenario runs when its name contains one (one
 * ending in `$` when its name ends with it: `GET /orgs/{org}$` is not the org's feed).
 */
export function selected(name: string): boolean {
  const filter = process.env.BENCH_SCENARIOS;
  if (!filter) return true;
  const lower = name.toLowerCase();
  return filter.split(',').some((part) => {
    const wanted = part.trim().toLowerCase();
    return wanted.endsWith('$') ? lower.endsWith(wanted.slice(0, -1)) : lower.includes(wanted);
  });
}

/**
 * One run of the load `load` makes for `url`: its warm-up on its connections, then its measured
 * window (`onMeasuring` called as it opens). `label` names the run in its warnings about failures.
 */
async function measuredRun(
  label: string,
  load: Scenario['load'],
  url: string,
  connections: number,
  settings: RoundSettings,
  onMeasuring?: () => void,
): Promise<LoadResult> {
  const spec = await load(url, connections);
  const result = await runLoad(
    { ...spec, url, connections, duration: settings.duration, warmup: settings.warmup },
    onMeasuring,
  );
  if (result.warmupFailures > 0) {
    console.warn(`  ${label} @${connections}: ${result.warmupFailures} failures in the warm-up`);
  }
  if (result.failures > 0) console.warn(`  ${label} @${connections}: ${JSON.stringify(result.statuses)}`);
  return result;
}

function fold(results: LoadResult[]) {
  return {
    rps: results.reduce((sum, result) => sum + result.rps, 0) / results.length,
    p50: median(results.map((result) => result.p50)),
    p99: median(results.map((result) => result.p99)),
    failures: results.reduce((sum, result) => sum + result.failures, 0),
  };
}

export async function runScenarios(
  scenarios: Scenario[],
  targets: { service: Target; baseline: Target },
  settings: RoundSettings,
): Promise<ScenarioResult[]> {
  const out: ScenarioResult[] = [];
  for (const scenario of scenarios.filter((s) => selected(s.name))) {
    for (const connections of scenario.connections ?? settings.connections) {
      const runs: Record<Target['name'], LoadResult[]> = { service: [], baseline: [] };
      const order = scenario.serviceOnly ? [targets.service] : [targets.service, targets.baseline];
      for (let round = 0; round < settings.rounds; round++) {
        for (const target of round % 2 === 0 ? order : [...order].reverse()) {
          const result = await measuredRun(
            `${scenario.name} ${target.name}`,
            scenario.load,
            target.url,
            connections,
            settings,
          );
          runs[target.name].push(result);
        }
      }
      const service = fold(runs.service);
      const baseline = runs.baseline.length ? fold(runs.baseline) : undefined;
      const result: ScenarioResult = {
        scenario: scenario.name,
        connections,
        service,
        ...(baseline ? { baseline, ratio: service.rps / baseline.rps } : {}),
      };
      console.log(
        `  ${scenario.name} @${connections}: service ${service.rps.toFixed(0)} req/s p99 ${service.p99} ms` +
          (baseline ? `, baseline ${baseline.rps.toFixed(0)} req/s p99 ${baseline.p99} ms` : ''),
      );
      out.push(result);
    }
  }
  return out;
}

/** One side of a variant pair: a server and the load sent to it. */
export interface VariantTarget {
  url: string;
  load: Scenario['load'];
  /**
   * The processes whose CPU time a request costs (the server, its database backends): when given,
   * the row also reports CPU milliseconds per request (less at the mercy of a shared machine than
   * throughput, which other processes' load takes a share of).
   */
  processes?(): Promise<number[]>;
  /** A count that grows by one per database statement the server runs: the row then reports statements per request. */
  statements?(): Promise<number>;
}

/** CPU time (user + system) of `pids` so far, in ms, by pid; a process gone is left out. */
export function cpuTimes(pids: number[]): Map<number, number> {
  const ticks = 100; // USER_HZ: clock ticks per second on Linux
  const times = new Map<number, number>();
  for (const pid of pids) {
    try {
      // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      times.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks);
    } catch {
      // exited
    }
  }
  return times;
}

/** The CPU ms `pids` used between two readings (processes in both). */
function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, ms] of after) sum += ms - (before.get(pid) ?? ms);
  return sum;
}

/**
 * One scenario under two settings (two servers, or two loads of one server), alternating which
 * runs first each round as runScenarios does; the rounds folded into one VariantRow.
 */
export async function runVariantPair(
  name: string,
  targets: { off: VariantTarget; on: VariantTarget },
  connections: number,
  settings: RoundSettings,
): Promise<VariantRow> {
  const runs: Record<'off' | 'on', LoadResult[]> = { off: [], on: [] };
  const cpu: Record<'off' | 'on', number[]> = { off: [], on: [] };
  const statements: Record<'off' | 'on', number[]> = { off: [], on: [] };
  const sides = ['off', 'on'] as const;
  for (let round = 0; round < settings.rounds; round++) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const target = targets[side];
      // Read as the measured window opens (the warm-up has opened the database connections), and
      // after: per response of the window.
      let opened: Promise<{ pids: number[]; before: Map<number, number>; statements?: number }> | undefined;
      const result = await measuredRun(
        `${name} ${side}`,
        target.load,
        target.url,
        connections,
        settings,
        () => {
          opened = (async () => {
            const pids = (await target.processes?.()) ?? [];
            return { pids, before: cpuTimes(pids), statements: await target.statements?.() };
          })();
        },
      );
      const reading = await opened;
      if (reading && reading.statements !== undefined && result.requests > 0) {
        statements[side].push(((await target.statements!()) - reading.statements) / result.requests);
      }
      if (reading?.pids.length && result.requests > 0) {
        cpu[side].push(cpuBetween(reading.before, cpuTimes(reading.pids)) / result.requests);
      }
      runs[side].push(result);
    }
  }
  const withCpu = (side: 'off' | 'on') => ({
    ...fold(runs[side]),
    ...(cpu[side].length ? { cpuMsPerRequest: median(cpu[side]) } : {}),
    ...(statements[side].length ? { statementsPerRequest: median(statements[side]) } : {}),
  });
  const off = withCpu('off');
  const on = withCpu('on');
  const cpuText = (figures: { cpuMsPerRequest?: number }) =>
    figures.cpuMsPerRequest === undefined ? '' : `, ${figures.cpuMsPerRequest.toFixed(2)} CPU ms/req`;
  console.log(
    `  ${name} @${connections}: off ${off.rps.toFixed(0)} req/s p50 ${off.p50} ms${cpuText(off)}, ` +
      `on ${on.rps.toFixed(0)} req/s p50 ${on.p50} ms${cpuText(on)} (on/off ${(on.rps / off.rps).toFixed(2)})`,
  );
  return { scenario: name, connections, off, on, ratio: on.rps / off.rps };
}
