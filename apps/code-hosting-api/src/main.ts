// First: tracing patches node:http, Express and pg as they load.
import { flushTracing } from './tracing';
import http from 'node:http';
import { createTerminus } from '@godaddy/terminus';
import { ConfigError, loadConfig } from './config';
import { connectPrisma, openDatabaseAt } from './db/database';
import { UnusableDatabaseError } from './db/unusable-database';
import { createStore } from './db/store';
import { accountService } from './domain/accounts';
import { migrationRunner } from './db/migration-runner';
import { buildApp } from './http/app';
import { createLogger } from './logger';
import { observeDatabasePool, recordQuery } from './http/metrics';
import { applyServerTimeouts, gracefulShutdown } from './lifecycle';
import { sweepAttachmentStorage, sweepSummary } from './attachment-sweep';
import { createStorage } from './storage/storage-config';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, config.logFormat);
  const location = await openDatabaseAt(config.database);
  const applied = await migrationRunner.applyMigrations(location.source);
  logger.info({ applied, database: config.database.kind }, 'database ready');
  const database = connectPrisma(location.source, {
    onClose: location.close,
    onQuery: recordQuery,
    limits: config.operations.database,
  });
  observeDatabasePool(database);
  const storage = createStorage(config.attachments, config.dataDir);
  const store = createStore(database.prisma);

  const bootstrapped = await accountService(store, config.settings).bootstrapAdmin(
    config.bootstrapAdmin,
    config.environment !== 'production',
  );
  if (bootstrapped) {
    // Printed once, straight to the terminal and never through the logger: these are secrets.
    process.stdout.write(
      `\nCreated site administrator "${bootstrapped.username}"\n  password: ${bootstrapped.password}\n  token:    ${bootstrapped.token}\n` +
        'They are shown only this once. Set ADMIN_USERNAME/ADMIN_PASSWORD to choose your own.\n\n',
    );
  }

  const service = buildApp({
    database,
    logger,
    rootUrl: config.rootUrl,
    settings: config.settings,
    storage,
    metricsToken: config.operations.metricsToken,
  });
  const server = http.createServer(service.app);
  applyServerTimeouts(server, config.operations.server);
  createTerminus(server, {
    // Drain (readiness 503, still serving), then the grace period for requests in flight: src/lifecycle.ts.
    ...gracefulShutdown(server, config.operations.shutdown, logger),
    signals: ['SIGINT', 'SIGTERM'],
    useExit0: true,
    // A sweep still running is cut short: each of its steps is safe to interrupt.
    onSignal: async () => {
      await service.settled();
      await storage.close();
      await database.close();
    },
    onShutdown: async () => {
      await flushTracing();
      logger.info('code-hosting-api stopped');
    },
    logger: (message, error) => logger.error({ err: error }, message),
  });
  // The start-up sweep runs beside the server, never in the way of readiness.
  void sweepAttachmentStorage(store, storage).then(
    (report) => logger.info(sweepSummary(report), 'attachment sweep done'),
    (error: unknown) => logger.error({ err: error }, 'attachment sweep failed'),
  );
  server.listen(config.port, () => {
    const { port } = server.address() as { port: number };
    logger.info(`code-hosting-api listening on http://localhost:${port}`);
  });
}

main().catch((error: unknown) => {
  // A configuration or database the service cannot use: its one line; anything else: the whole error.
  console.error(
    error instanceof ConfigError || error instanceof UnusableDatabaseError ? error.message : error,
  );
  process.exit(1);
});
