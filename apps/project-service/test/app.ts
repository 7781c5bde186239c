import { signTestToken, useTestApp, type TestDatabaseSource } from '@repo/testing';
import type { AuthConfig } from '../src/auth/auth-config';
import { connectPrisma } from '../src/db/database';
import type { DestinationStream } from 'pino';
import { composeApp } from '../src/compose';
import { DATA_RENDERERS } from '../src/events/data-renderers';
import { startServiceEvents } from '../src/events/service-events';
import type { EventsSettings } from '../src/events/events-config';
import type { RelayTuning } from '../src/events/relay';
import { observeDatabasePool, recordQuery } from '../src/metrics/database-metrics';
import { createLogger } from '../src/logger';

export const TEST_JWT_SECRET = 'project-service-test-secret-0123456789';
export const ADMIN_PRINCIPAL = 'admin-alice';
export const ADMIN_GROUP = 'platform-admins';

export const testAuthConfig: AuthConfig = {
  key: { kind: 'secret', secret: TEST_JWT_SECRET },
  adminPrincipals: [ADMIN_PRINCIPAL],
  adminGroup: ADMIN_GROUP,
};

/** The app on a database that is down (port 1 on loopback refuses connections), for what needs none. */
export function appWithUnreachableDatabase() {
  const database = connectPrisma({ kind: 'postgres', url: 'postgresql://postgres@127.0.0.1:1/none' });
  const app = composeApp({ database, logger: createLogger('silent'), auth: testAuthConfig });
  return { app, close: () => database.close() };
}

/** `Bearer <token>` for a principal, signed with the test secret. */
export function bearer(principal: string, claims: Record<string, unknown> = {}): string {
  return `Bearer ${signTestToken({ principal, ...claims }, { algorithm: 'HS256', secret: TEST_JWT_SECRET })}`;
}

export interface TestAppOptions {
  /** Captures the log lines (at LOG_LEVEL, or `logLevel`) instead of dropping them. */
  logDestination?: DestinationStream;
  logLevel?: string;
  metricsToken?: string;
  /** Sees every database statement as it runs (besides the metrics), to count round trips or explain plans. */
  onQuery?: (sql: string, params: string) => void;
  /** Change events on: publishes to this NATS, on this stream (test/events/). */
  events?: TestEventsOptions;
}

export interface TestEventsOptions {
  natsUrl: string;
  stream: string;
  subjectPrefix: string;
  /** The events' `source`; http://project-service.test/ when not given. */
  source?: string;
  xSyncTimeoutMs?: number;
  publishTimeoutMs?: number;
  /** How long published events stay in the outbox; an hour when not given. */
  retentionMs?: number;
  relayTuning?: RelayTuning;
  /** The stream's duplicate window when the service creates it (EVENTS_STREAM_DUPLICATE_WINDOW_MS); 120000 when not given. */
  duplicateWindowMs?: number;
}

export const TEST_EVENTS_SOURCE = 'http://project-service.test/';

/** Events settings as config.ts would make them from NATS_URL, EVENTS_STREAM and EVENTS_SUBJECT_PREFIX. */
export function testEventsSettings(options: TestEventsOptions): EventsSettings {
  return {
    natsUrl: options.natsUrl,
    stream: {
      name: options.stream,
      subjectPrefix: options.subjectPrefix,
      replicas: 1,
      maxAgeMs: 3_600_000,
      maxBytes: -1,
      duplicateWindowMs: options.duplicateWindowMs ?? 120_000,
    },
    retentionMs: options.retentionMs ?? 3_600_000,
    publishTimeoutMs: options.publishTimeoutMs ?? 2000,
  };
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
      ? (sql, durationMs, params) => {
          recordQuery(sql, durationMs);
          onQuery(sql, params());
        }
      : recordQuery,
  });
  observeDatabasePool(database);
  const level = options.logLevel ?? process.env.LOG_LEVEL ?? 'silent';
  const logger = createLogger(level, options.logDestination);
  const events =
    options.events &&
    startServiceEvents({
      settings: testEventsSettings(options.events),
      prisma: database.prisma,
      logger,
      source: options.events.source ?? TEST_EVENTS_SOURCE,
      renderers: DATA_RENDERERS,
      relayTuning: options.events.relayTuning,
    });
  const app = composeApp({
    database,
    logger,
    auth,
    metricsToken: options.metricsToken,
    events,
    xSyncTimeoutMs: options.events?.xSyncTimeoutMs,
  });
  return {
    app,
    close: async () => {
      await events?.stop(Date.now() + 2000);
      await database.close();
    },
  };
}

export function useProjectService(auth: AuthConfig = testAuthConfig, options: TestAppOptions = {}) {
  return useTestApp((source) => createTestApp(source, auth, options));
}
