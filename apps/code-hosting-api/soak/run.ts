/**
 * `pnpm run soak` (the root's `node scripts/workspace.mjs app-script soak code-hosting-api`): three
 * replicas of the built service on a throwaway database of the machine's PostgreSQL and a NATS of
 * the soak's own, sixteen clients (./workload.ts) for SOAK_DURATION_S seconds (60) while the
 * nemesis kills and stops replicas, kills NATS and terminates the database's connections; then the
 * history checked (@repo/testing/soak). Exit status 1 on any violation.
 */
import path from 'node:path';
import { runSoak } from '@repo/testing/soak';
import { codeHostingWorkload } from './workload';

runSoak({
  app: 'code-hosting-api',
  appDir: path.resolve(__dirname, '..'),
  workload: codeHostingWorkload(),
}).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
