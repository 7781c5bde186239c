import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  createTestDatabase,
  startServiceProcess,
  type ServiceProcess,
  type TestDatabase,
} from '@repo/testing';
import { ADMIN_PRINCIPAL, TEST_JWT_SECRET } from './app';

const appDir = path.resolve(__dirname, '..');

/**
 * The built service (dist/main.js) as a child process, on PostgreSQL when DATABASE_URL is set
 * (a database of this test's own), else PGlite in a temporary DATA_DIR; restartable on the same data.
 */
export async function serviceHome(): Promise<{
  start(env?: Record<string, string>): Promise<ServiceProcess>;
  remove(): Promise<void>;
}> {
  let database: TestDatabase | undefined;
  // Only PGlite writes to DATA_DIR: on PostgreSQL this app keeps nothing on disk.
  let dataDir: string | undefined;
  if (process.env.DATABASE_URL) {
    database = await createTestDatabase();
  } else {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'project-service-process-'));
  }
  const source = database?.source;
  const location: Record<string, string> =
    source?.kind === 'postgres' ? { DATABASE_URL: source.url } : { DATA_DIR: dataDir ?? '' };
  return {
    start: (env = {}) =>
      startServiceProcess(appDir, {
        // This app's own credentials: tokens signed with the tests' secret, its admin principal.
        JWT_SECRET: TEST_JWT_SECRET,
        ADMIN_PRINCIPALS: ADMIN_PRINCIPAL,
        ...location,
        ...env,
      }),
    remove: async () => {
      await database?.drop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
