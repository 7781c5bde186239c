import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServiceProcess, type ServiceProcess } from './service-process';
import { createTestDatabase, type TestDatabase } from './test-database';

/** An app's built service on data of its own: started (and restarted on the same data) at will. */
export interface ServiceHome {
  start(env?: Record<string, string>): Promise<ServiceProcess>;
  remove(): Promise<void>;
}

/**
 * The built service (dist/main.js) of the app in `appDir` as a child process, with `env`, in a
 * temporary DATA_DIR, and on PostgreSQL when DATABASE_URL is set (a database of its own), else on
 * PGlite in that folder.
 */
export async function createServiceHome(appDir: string, env: Record<string, string>): Promise<ServiceHome> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `${path.basename(appDir)}-process-`));
  let database: TestDatabase | undefined;
  if (process.env.DATABASE_URL) database = await createTestDatabase();
  const source = database?.source;
  return {
    start: (startEnv = {}) =>
      startServiceProcess(appDir, {
        ...env,
        DATA_DIR: dataDir,
        ...(source?.kind === 'postgres' ? { DATABASE_URL: source.url } : {}),
        ...startEnv,
      }),
    remove: async () => {
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
