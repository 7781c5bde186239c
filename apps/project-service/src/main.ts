// First: tracing patches node:http, Express and pg as they load.
import './tracing';
import http from 'node:http';
import { DEVELOPMENT_ADMIN } from './auth/auth-config';
import { mintToken } from './auth/development-token';
import { loadConfig } from './config';
import { composeApp } from './compose';
import { ConcurrencyGate } from './http/concurrency-gate';
import { EVENT_STREAM_NAME } from './events/catalog';
import { DATA_RENDERERS } from './events/data-renderers';
import { startServiceEvents } from './events/service-events';
import { createLogger } from './logger';
import { openServiceDatabase, runMain, serve } from './service-main';

/** How long shutdown spends publishing the events still pending. */
const EVENTS_STOP_MS = 3000;

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, config.logFormat);
  const database = await openServiceDatabase(config, logger);
  const events =
    config.events &&
    startServiceEvents({
      settings: config.events,
      prisma: database.prisma,
      logger,
      source: config.publicUrl,
      renderers: DATA_RENDERERS,
    });

  const app = composeApp({
    database,
    logger,
    auth: config.auth,
    metricsToken: config.operations.metricsToken,
    unpagedLists: new ConcurrencyGate(config.unpagedLists),
    events,
    xSyncTimeoutMs: config.xSyncTimeoutMs,
    eventsDocument: {
      source: config.publicUrl,
      streamName: config.events?.stream.name ?? EVENT_STREAM_NAME,
      subjectPrefix: config.events?.stream.subjectPrefix ?? '',
    },
  });
  const server = http.createServer(app.serverOptions, app);
  serve(server, {
    config,
    logger,
    onSignal: async () => {
      // Publishes what it can in a few seconds; the rest waits in the outbox for the next start.
      await events?.stop(Date.now() + EVENTS_STOP_MS);
      await database.close();
    },
    onListening: () => {
      if (!config.developmentSecret) return;
      // Development only (never in production, see config.ts): a secret made up for this run, so
      // this token dies with the process. Printed to stdout for the developer, not to the log stream.
      const token = mintToken(config.developmentSecret, { principal: DEVELOPMENT_ADMIN });
      logger.warn(
        'no JWKS_URL, JWT_PUBLIC_KEY or JWT_SECRET configured: verifying tokens with a generated development secret',
      );
      console.log(
        `\nDevelopment admin token (principal ${DEVELOPMENT_ADMIN}, valid 12h, this run only):\n\n  export TOKEN=${token}\n`,
      );
    },
  });
}

runMain(main);
