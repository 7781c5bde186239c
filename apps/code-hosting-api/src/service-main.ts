// Generated from apps/project-service/src/service-main.ts by `npm run sync:copies`: edit that file, not this copy.
import type { Server } from 'node:http';
import { createTerminus } from '@godaddy/terminus';
import { connectPrisma, openDatabaseAt, type Database } from './db/database';
import { migrationRunner } from './db/migration-runner';
import { UnusableDatabaseError } from './db/unusable-database';
import { observeDatabasePool, recordQuery } from './metrics/database-metrics';
import { applyServerTimeouts, gracefulShutdown } from './lifecycle';
import type { Logger } from './logger';
import { ConfigError, type RuntimeSettings } from './runtime-config';
import { SERVICE_NAME } from './service-name';
import { flushTracing } from './tracing';

/** The service's database: opened (PGlite or PostgreSQL), migrated, and connected with the metrics' observers. */
export async function openServiceDatabase(config: RuntimeSettings, logger: Logger): Promise<Database> {
  const location = await openDatabaseAt(config.database);
  const applied = await migrationRunner.applyMigrations(location.source, {
    timeoutMs: config.operations.migrationTimeoutMs,
    notice: (message) => logger.warn(message),
  });
  logger.info({ applied, database: config.database.kind }, 'database ready');
  const database = connectPrisma(location.source, {
    onClose: location.close,
    onQuery: recordQuery,
    limits: config.operations.database,
  });
  observeDatabasePool(database);
  return database;
}

export interface ServeOptions {
  config: RuntimeSettings;
  logger: Logger;
  /** Closes what the app opened (the database last); runs once the server is closed. */
  onSignal: () => Promise<void>;
  /** After the listening line (a development notice). */
  onListening?: () => void;
}

/**
 * Serves on the configured port until SIGINT (stop at once) or SIGTERM (drain, readiness 503 while
 * still serving, then the grace period for requests in flight: src/lifecycle.ts); then `onSignal`,
 * the spans still batched, and the stop line.
 */
export function serve(server: Server, { config, logger, onSignal, onListening }: ServeOptions): void {
  applyServerTimeouts(server, config.operations.server);
  createTerminus(server, {
    ...gracefulShutdown(server, config.operations.shutdown, logger),
    signals: ['SIGINT', 'SIGTERM'],
    useExit0: true,
    // Runs once the server is closed: every request accepted has been answered (or the grace period is over).
    onSignal,
    onShutdown: async () => {
      await flushTracing();
      logger.info(`${SERVICE_NAME} stopped`);
    },
    logger: (message, error) => logger.error({ err: error }, message),
  });
  server.listen(config.port, () => {
    const { port } = server.address() as { port: number };
    logger.info(`${SERVICE_NAME} listening on http://localhost:${port}`);
    onListening?.();
  });
}

/** Runs main.ts's `main`, exiting 1 when it fails. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    // A configuration or database the service cannot use: its one line; anything else: the whole error.
    console.error(
      error instanceof ConfigError || error instanceof UnusableDatabaseError ? error.message : error,
    );
    process.exit(1);
  });
}
