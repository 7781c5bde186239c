// First: tracing patches node:http, Express and pg as they load.
import { flushTracing } from './tracing';
import http from 'node:http';
import { createTerminus } from '@godaddy/terminus';
import { DEVELOPMENT_ADMIN } from './auth/auth-config';
import { mintToken } from './auth/development-token';
import { ConfigError, loadConfig } from './config';
import { connectPrisma, openDatabaseAt } from './db/database';
import { UnusableDatabaseError } from './db/unusable-database';
import { migrationRunner } from './db/migration-runner';
import { buildApp } from './http/app';
import { ConcurrencyGate } from './http/concurrency-gate';
import { observeDatabasePool, recordQuery } from './http/metrics';
import { applyServerTimeouts, gracefulShutdown } from './lifecycle';
import { createLogger } from './logger';

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

  const server = http.createServer(
    buildApp({
      database,
      logger,
      auth: config.auth,
      metricsToken: config.operations.metricsToken,
      unpagedLists: new ConcurrencyGate(config.unpagedLists),
    }),
  );
  applyServerTimeouts(server, config.operations.server);
  createTerminus(server, {
    ...gracefulShutdown(server, config.operations.shutdown, logger),
    signals: ['SIGINT', 'SIGTERM'],
    useExit0: true,
    // Runs once the server is closed: every request accepted has been answered (or the grace period is over).
    onSignal: () => database.close(),
    onShutdown: async () => {
      await flushTracing();
      logger.info('project-service stopped');
    },
    logger: (message, error) => logger.error({ err: error }, message),
  });
  server.listen(config.port, () => {
    const { port } = server.address() as { port: number };
    logger.info(`project-service listening on http://localhost:${port}`);
    if (config.developmentSecret) {
      // Development only (never in production, see config.ts): a secret made up for this run, so
      // this token dies with the process. Printed to stdout for the developer, not to the log stream.
      const token = mintToken(config.developmentSecret, { principal: DEVELOPMENT_ADMIN });
      logger.warn(
        'no JWKS_URL, JWT_PUBLIC_KEY or JWT_SECRET configured: verifying tokens with a generated development secret',
      );
      console.log(
        `\nDevelopment admin token (principal ${DEVELOPMENT_ADMIN}, valid 12h, this run only):\n\n  export TOKEN=${token}\n`,
      );
    }
  });
}

main().catch((error: unknown) => {
  // A configuration or database the service cannot use: its one line; anything else: the whole error.
  console.error(
    error instanceof ConfigError || error instanceof UnusableDatabaseError ? error.message : error,
  );
  process.exit(1);
});
