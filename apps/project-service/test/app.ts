import { signTestToken, useTestApp, type TestDatabaseSource } from '@repo/testing';
import type { AuthConfig } from '../src/auth/auth-config';
import { connectPrisma } from '../src/db/database';
import type { DestinationStream } from 'pino';
import { buildApp } from '../src/http/app';
import { observeDatabasePool, recordQuery } from '../src/http/metrics';
import { createLogger } from '../src/logger';

export const TEST_JWT_SECRET = 'project-service-test-secret-0123456789';
export const ADMIN_PRINCIPAL = 'admin-alice';
export const ADMIN_GROUP = 'platform-admins';

export const testAuthConfig: AuthConfig = {
  key: { kind: 'secret', secret: TEST_JWT_SECRET },
  adminPrincipals: [ADMIN_PRINCIPAL],
  adminGroup: ADMIN_GROUP,
};

/** `Bearer <token>` for a principal, signed with the test secret. */
export function bearer(principal: string, claims: Record<string, unknown> = {}): string {
  return `Bearer ${signTestToken({ principal, ...claims }, { algorithm: 'HS256', secret: TEST_JWT_SECRET })}`;
}

export interface TestAppOptions {
  /** Captures the log lines (at LOG_LEVEL, or `logLevel`) instead of dropping them. */
  logDestination?: DestinationStream;
  logLevel?: string;
  metricsToken?: string;
  /** Sees every database statement as it runs (besides the metrics), to count round trips. */
  onQuery?: (sql: string) => void;
}

/** The real app over this test file's own database, its queries timed as main.ts times them. */
export async function createTestApp(
  source: TestDatabaseSource,
  auth: AuthConfig = testAuthConfig,
  options: TestAppOptions = {},
) {
  const { onQuery } = options;
  const database = connectPrisma(source, {
    onQuery: onQuery
      ? (sql, durationMs) => {
          recordQuery(sql, durationMs);
          onQuery(sql);
        }
      : recordQuery,
  });
  observeDatabasePool(database);
  const level = options.logLevel ?? process.env.LOG_LEVEL ?? 'silent';
  const logger = createLogger(level, options.logDestination);
  const app = buildApp({ database, logger, auth, metricsToken: options.metricsToken });
  return { app, close: () => database.close() };
}

export function useProjectService(auth: AuthConfig = testAuthConfig, options: TestAppOptions = {}) {
  return useTestApp((source) => createTestApp(source, auth, options));
}
