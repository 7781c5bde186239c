/**
 * `pnpm run bench` (and the root's `npm run bench`): the attachment bench, then the HTTP bench
 * against the baseline (the harness's run.ts: --compare, --against, results files).
 * BENCH_SCENARIOS filters (attachments, startup, or parts of a scenario's name).
 */
import path from 'node:path';
import { runBench } from '@repo/testing/bench';
import { runHttpBench } from './http';

runBench({
  benchDir: __dirname,
  first: { name: 'attachments', script: path.join(__dirname, 'attachments.ts') },
  runHttpBench,
});
