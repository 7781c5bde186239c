import { useTestApp, type TestDatabaseSource } from '@repo/testing';
import { connectPrisma } from '../src/db/database';
import { buildApp } from '../src/http/app';
import { createLogger } from '../src/logger';

export const testRootUrl = 'http://code-hosting.test/';

/** The real app over this test file's own database. */
export async function createTestApp(source: TestDatabaseSource) {
  const database = connectPrisma(source);
  const app = buildApp({ database, logger: createLogger(process.env.LOG_LEVEL ?? 'silent'), rootUrl: testRootUrl });
  return { app, close: () => database.close() };
}

export function useCodeHostingApi() {
  return useTestApp(createTestApp);
}
