import { useTestApp, type TestDatabaseSource } from '@repo/testing';
import { defaultSettings, type ServiceSettings } from '../src/config';
import { connectPrisma, type ConnectOptions } from '../src/db/database';
import { createStore } from '../src/db/store';
import { accountService } from '../src/domain/accounts';
import { buildApp } from '../src/http/app';
import { createLogger } from '../src/logger';

export const testRootUrl = 'http://code-hosting.test/';

/** The site administrator every test app starts with, as ADMIN_USERNAME/ADMIN_PASSWORD would create. */
export const siteAdmin = { username: 'root', password: 'root-password-for-tests' };

// A low scrypt cost keeps the suite fast; production uses the configured cost.
export const testSettings: ServiceSettings = { ...defaultSettings, passwordHashCost: 16 };

/** The real app over this test file's own database (connect options: e.g. a query observer). */
export async function createTestApp(
  source: TestDatabaseSource,
  settings: ServiceSettings = testSettings,
  connectOptions: ConnectOptions = {},
) {
  const database = connectPrisma(source, connectOptions);
  try {
    await accountService(createStore(database.prisma), settings).bootstrapAdmin(siteAdmin, false);
    const app = buildApp({
      database,
      logger: createLogger(process.env.LOG_LEVEL ?? 'silent'),
      rootUrl: testRootUrl,
      settings,
    });
    return { app, close: () => database.close() };
  } catch (error) {
    await database.close();
    throw error;
  }
}

export function useCodeHostingApi(settings: Partial<ServiceSettings> = {}) {
  return useTestApp((source) => createTestApp(source, { ...testSettings, ...settings }));
}
