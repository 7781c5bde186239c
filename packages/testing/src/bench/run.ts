/**
 * An app's `pnpm run bench` (and the root's `npm run bench`): the app's own bench first (in a
 * process of its own), then the HTTP bench against the baseline; prints the table and writes
 * bench/results/<date>.json and latest.json.
 *
 *   pnpm run bench -- --compare <results.json>          run, then print the change from that file
 *   pnpm run bench -- --compare <old.json> --against <new.json>   compare two files, run nothing
 *   pnpm run bench -- --only <names>                    only what BENCH_SCENARIOS=<names> selects
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { compareResults, printResults, readResults, writeResults, type BenchResults } from './report';
import { selected } from './rounds';

export interface BenchEntry {
  /** The app's bench/ folder: the results are written under its results/. */
  benchDir: string;
  /** Run first (with tsx) when BENCH_SCENARIOS selects `name`. */
  first?: { name: string; script: string };
  runHttpBench(): Promise<BenchResults>;
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

/** A path as the caller meant it: relative to where `npm run` was started (INIT_CWD), else here. */
function resolvePath(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}

function compare(beforeFile: string, after: BenchResults): number {
  const before = readResults(resolvePath(beforeFile));
  if (before.app !== after.app) {
    console.log(`\n${beforeFile} holds ${before.app}'s results, not ${after.app}'s: nothing to compare here`);
    return 0;
  }
  const { text, regressions } = compareResults(before, after);
  console.log(`\n## ${after.app}: change from ${beforeFile}\n\n${text}`);
  return regressions;
}

async function main(entry: BenchEntry): Promise<void> {
  const only = argument('--only');
  if (only) process.env.BENCH_SCENARIOS = only;
  const before = argument('--compare');
  const against = argument('--against');
  if (before && against) {
    compare(before, readResults(resolvePath(against)));
    return;
  }
  if (entry.first && selected(entry.first.name)) {
    execFileSync(process.execPath, ['--import', 'tsx', entry.first.script], { stdio: 'inherit' });
  }
  const results = await entry.runHttpBench();
  const file = writeResults(entry.benchDir, results);
  printResults(results);
  console.log(`\nresults: ${path.relative(process.cwd(), file)} (and bench/results/latest.json)`);
  if (before) compare(before, results);
}

/** Runs the bench as the command line asks; exits 1 on failure. */
export function runBench(entry: BenchEntry): void {
  main(entry).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
