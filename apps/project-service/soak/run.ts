/**
 * `pnpm run soak` (the root's `node scripts/workspace.mjs app-script soak project-service`): three
 * replicas of the built service on a throwaway database of the machine's PostgreSQL and a NATS of
 * the soak's own, sixteen clients (./workload.ts) for SOAK_DURATION_S seconds (60) while the
 * nemesis kills and stops replicas, kills NATS and terminates the database's connections; then the
 * history checked (@repo/testing/soak). Exit status 1 on any violation.
 */
import path from 'node:path';
import { runSoak } from '@repo/testing/soak';
import { projectWorkload } from './workload';

runSoak({ app: 'project-service', appDir: path.resolve(__dirname, '..'), workload: projectWorkload() }).catch(
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
