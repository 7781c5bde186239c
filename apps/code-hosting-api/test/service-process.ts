import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  createTestDatabase,
  startServiceProcess,
  type ServiceProcess,
  type TestDatabase,
} from '@repo/testing';

const appDir = path.resolve(__dirname, '..');

export const processAdmin = { username: 'process-admin', password: 'process-admin-password' };
export const processAdminAuthorization = `Basic ${Buffer.from(`${processAdmin.username}:${processAdmin.password}`).toString('base64')}`;

/**
 * The built service (dist/main.js) as a child process, on PostgreSQL when DATABASE_URL is set
 * (a database of this test's own), else PGlite in a temporary DATA_DIR; restartable on the same data.
 */
export async function serviceHome(): Promise<{
  start(env?: Record<string, string>): Promise<ServiceProcess>;
  remove(): Promise<void>;
}> {
  let database: TestDatabase | undefined;
  // A DATA_DIR even on PostgreSQL, unlike project-service's: attachments are stored on disk there.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'code-hosting-api-process-'));
  if (process.env.DATABASE_URL) database = await createTestDatabase();
  const source = database?.source;
  return {
    start: (env = {}) =>
      startServiceProcess(appDir, {
        // This app's own credentials: a site administrator it bootstraps at start-up.
        ADMIN_USERNAME: processAdmin.username,
        ADMIN_PASSWORD: processAdmin.password,
        PASSWORD_HASH_COST: '16',
        DATA_DIR: dataDir,
        ...(source?.kind === 'postgres' ? { DATABASE_URL: source.url } : {}),
        ...env,
      }),
    remove: async () => {
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
