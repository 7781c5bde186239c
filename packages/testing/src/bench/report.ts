/**
 * The bench's results: one table on stdout, one JSON file (with the machine, commit and date) under
 * bench/results/, and the comparison of two such files.
 */
import { execSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface ScenarioResult {
  scenario: string;
  connections: number;
  service: { rps: number; p50: number; p99: number; failures: number };
  baseline?: { rps: number; p50: number; p99: number; failures: number };
  /** service rps / baseline rps. */
  ratio?: number;
}

/** A measurement that is not a load: a time, a memory figure. Lower is better unless `higherIsBetter`. */
export interface Measurement {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  higherIsBetter?: boolean;
}

/** One load, folded over the rounds (rounds.ts). */
export type LoadFigures = ScenarioResult['service'];

/** One scenario run with a setting off and on (e.g. change events), in alternating rounds. */
/** A variant's figures: a load's, and when measured the CPU ms per request (median of the rounds). */
export type VariantFigures = LoadFigures & { cpuMsPerRequest?: number; statementsPerRequest?: number };

export interface VariantRow {
  scenario: string;
  connections: number;
  off: VariantFigures;
  on: VariantFigures;
  /** on rps / off rps. */
  ratio: number;
}

/**
 * The service compared with itself under another setting (not against the baseline): its rows,
 * the names of the two settings, and lines of findings (checks, derived figures).
 */
export interface VariantSection {
  title: string;
  /** What `off` and `on` stand for in this section, e.g. 'events off' / 'events on'. */
  offLabel: string;
  onLabel: string;
  rows: VariantRow[];
  notes: string[];
}

export interface BenchResults {
  app: string;
  date: string;
  commit: string;
  machine: { cpu: string; cores: number; memoryGiB: number; node: string; postgres?: string; os: string };
  settings: Record<string, unknown>;
  scenarios: ScenarioResult[];
  measurements: Measurement[];
  /** The service under other settings (absent in results written before there were any). */
  variants?: VariantSection[];
}

export function machine(postgres?: string): BenchResults['machine'] {
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    ...(postgres ? { postgres } : {}),
    os: `${os.type()} ${os.release()}`,
  };
}

export function commit(): string {
  try {
    const head = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
    const dirty = execSync('git status --porcelain --untracked-files=no -- src', { encoding: 'utf8' }).trim();
    return dirty ? `${head}+local changes in src` : head;
  } catch {
    return 'unknown';
  }
}

const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function scenarioTable(results: BenchResults): string {
  const rows = results.scenarios.map((result) => [
    result.scenario,
    String(result.connections),
    fixed(result.service.rps),
    result.baseline ? fixed(result.baseline.rps) : '–',
    result.ratio === undefined ? '–' : fixed(result.ratio, 2),
    `${fixed(result.service.p50)} / ${fixed(result.service.p99)}`,
    result.baseline ? fixed(result.baseline.p99) : '–',
    result.service.failures + (result.baseline?.failures ?? 0) > 0
      ? `${result.service.failures}/${result.baseline?.failures ?? 0}`
      : '',
  ]);
  return markdownTable(
    [
      'scenario',
      'connections',
      'service req/s',
      'baseline req/s',
      'service/baseline',
      'service p50 / p99 ms',
      'baseline p99 ms',
      'failures (svc/base)',
    ],
    rows,
  );
}

export function measurementTable(results: BenchResults): string {
  return markdownTable(
    ['measurement', 'service', 'baseline'],
    results.measurements.map((m) => [
      m.name,
      `${fixed(m.value, m.value < 10 ? 1 : 0)} ${m.unit}`,
      m.baseline === undefined ? '–' : `${fixed(m.baseline, m.baseline < 10 ? 1 : 0)} ${m.unit}`,
    ]),
  );
}

export function variantTable(section: VariantSection): string {
  const cpu = section.rows.some((row) => row.on.cpuMsPerRequest !== undefined);
  const statements = section.rows.some((row) => row.on.statementsPerRequest !== undefined);
  const statementCell = (figures: VariantFigures) =>
    figures.statementsPerRequest === undefined ? '–' : fixed(figures.statementsPerRequest, 1);
  const cpuCell = (figures: VariantFigures) =>
    figures.cpuMsPerRequest === undefined ? '–' : fixed(figures.cpuMsPerRequest, 2);
  return markdownTable(
    [
      'scenario',
      'connections',
      `${section.offLabel} req/s`,
      `${section.onLabel} req/s`,
      'on/off',
      `${section.offLabel} p50 / p99 ms`,
      `${section.onLabel} p50 / p99 ms`,
      ...(cpu ? ['CPU ms/req off → on (server + database)'] : []),
      ...(statements ? ['statements/req off → on'] : []),
      'failures (off/on)',
    ],
    section.rows.map((row) => [
      row.scenario,
      String(row.connections),
      fixed(row.off.rps),
      fixed(row.on.rps),
      fixed(row.ratio, 2),
      `${fixed(row.off.p50)} / ${fixed(row.off.p99)}`,
      `${fixed(row.on.p50)} / ${fixed(row.on.p99)}`,
      ...(cpu ? [`${cpuCell(row.off)} → ${cpuCell(row.on)}`] : []),
      ...(statements ? [`${statementCell(row.off)} → ${statementCell(row.on)}`] : []),
      row.off.failures + row.on.failures > 0 ? `${row.off.failures}/${row.on.failures}` : '',
    ]),
  );
}

export function machineLine(results: BenchResults): string {
  const m = results.machine;
  return `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}${m.postgres ? `, ${m.postgres}` : ''}; commit ${results.commit}, ${results.date}`;
}

export function printResults(results: BenchResults): void {
  console.log(`\n## ${results.app}: ${machineLine(results)}\n`);
  console.log(scenarioTable(results));
  if (results.measurements.length) console.log(`\n${measurementTable(results)}`);
  for (const section of results.variants ?? []) {
    console.log(`\n### ${section.title}\n\n${variantTable(section)}`);
    for (const note of section.notes) console.log(`\n${note}`);
  }
}

/** Writes the results as bench/results/<date>.json and bench/results/latest.json. */
export function writeResults(benchDir: string, results: BenchResults): string {
  const folder = path.join(benchDir, 'results');
  mkdirSync(folder, { recursive: true });
  const text = `${JSON.stringify(results, null, 2)}\n`;
  const file = path.join(folder, `${results.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, text);
  writeFileSync(path.join(folder, 'latest.json'), text);
  return file;
}

export function readResults(file: string): BenchResults {
  return JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
}

/** Flags a loss of more than this share (throughput down, or time, memory or latency up). */
const REGRESSION = 0.1;

/** The difference per scenario and measurement from `before` to `after`; regressions over 10% flagged. */
export function compareResults(
  before: BenchResults,
  after: BenchResults,
): { text: string; regressions: number } {
  const key = (result: ScenarioResult) => `${result.scenario} @${result.connections}`;
  const old = new Map(before.scenarios.map((result) => [key(result), result]));
  let regressions = 0;
  const change = (from: number, to: number) => (from === 0 ? 0 : (to - from) / from);
  const percent = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`;
  const rows: string[][] = [];
  for (const result of after.scenarios) {
    const previous = old.get(key(result));
    if (!previous) {
      rows.push([key(result), '(new)', fixed(result.service.rps), '', '', '']);
      continue;
    }
    const rps = change(previous.service.rps, result.service.rps);
    const p99 = change(previous.service.p99, result.service.p99);
    const flagged = rps < -REGRESSION || (p99 > REGRESSION && result.service.p99 - previous.service.p99 > 1);
    if (flagged) regressions++;
    rows.push([
      key(result),
      fixed(previous.service.rps),
      fixed(result.service.rps),
      percent(rps),
      `${fixed(previous.service.p99)} → ${fixed(result.service.p99)} (${percent(p99)})`,
      flagged ? 'REGRESSION' : '',
    ]);
  }
  const variantKey = (section: VariantSection, row: VariantRow) =>
    `${row.scenario} @${row.connections}, ${section.onLabel}`;
  const oldVariants = new Map(
    (before.variants ?? []).flatMap((section) =>
      section.rows.map((row) => [variantKey(section, row), row] as const),
    ),
  );
  for (const section of after.variants ?? []) {
    for (const row of section.rows) {
      const key = variantKey(section, row);
      const previous = oldVariants.get(key);
      if (!previous) {
        rows.push([key, '(new)', fixed(row.on.rps), '', '', '']);
        continue;
      }
      const rps = change(previous.on.rps, row.on.rps);
      const p99 = change(previous.on.p99, row.on.p99);
      const flagged = rps < -REGRESSION || (p99 > REGRESSION && row.on.p99 - previous.on.p99 > 1);
      if (flagged) regressions++;
      rows.push([
        key,
        fixed(previous.on.rps),
        fixed(row.on.rps),
        percent(rps),
        `${fixed(previous.on.p99)} → ${fixed(row.on.p99)} (${percent(p99)})`,
        flagged ? 'REGRESSION' : '',
      ]);
    }
  }
  const oldMeasurements = new Map(before.measurements.map((m) => [m.name, m]));
  for (const m of after.measurements) {
    const previous = oldMeasurements.get(m.name);
    if (!previous) continue;
    const delta = change(previous.value, m.value);
    const worse = m.higherIsBetter ? delta < -REGRESSION : delta > REGRESSION;
    if (worse) regressions++;
    rows.push([
      m.name,
      `${fixed(previous.value, 1)} ${m.unit}`,
      `${fixed(m.value, 1)} ${m.unit}`,
      percent(delta),
      '',
      worse ? 'REGRESSION' : '',
    ]);
  }
  const text = [
    `before: ${machineLine(before)}`,
    `after:  ${machineLine(after)}`,
    '',
    markdownTable(['scenario', 'before req/s', 'after req/s', 'change', 'p99 ms', ''], rows),
    '',
    regressions ? `${regressions} regression(s) over 10%` : 'no regression over 10%',
  ].join('\n');
  return { text, regressions };
}
