/**
 * `pnpm run bench` (and the root's `npm run bench`): the codec bench, then the HTTP bench against
 * the baseline (the harness's run.ts: --compare, --against, results files).
 * BENCH_SCENARIOS filters (codecs, startup, full list, or parts of a scenario's name).
 */
import path from 'node:path';
import { runBench } from '@repo/testing/bench';
import { runHttpBench } from './http';

runBench({
  benchDir: __dirname,
  first: { name: 'codecs', script: path.join(__dirname, 'codecs.ts') },
  runHttpBench,
});
