import { signTestToken, useTestApp, type TestDatabaseSource } from '@repo/testing';
import type { AuthConfig } from '../src/auth/auth-config';
import { connectPrisma } from '../src/db/database';
import { buildApp } from '../src/http/app';
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

/** The real app over this test file's own database. */
export async function createTestApp(source: TestDatabaseSource, auth: AuthConfig = testAuthConfig) {
  const database = connectPrisma(source);
  const app = buildApp({ database, logger: createLogger(process.env.LOG_LEVEL ?? 'silent'), auth });
  return { app, close: () => database.close() };
}

export function useProjectService(auth: AuthConfig = testAuthConfig) {
  return useTestApp((source) => createTestApp(source, auth));
}
