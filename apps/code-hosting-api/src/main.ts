// First: tracing patches node:http, Express and pg as they load.
import './tracing';
import http from 'node:http';
import { loadConfig } from './config';
import { createStore } from './db/store';
import { accountService } from './domain/accounts';
import { composeApp } from './compose';
import { EVENT_STREAM_NAME } from './events/catalog';
import { DATA_RENDERERS } from './events/data-renderers';
import { startServiceEvents } from './events/service-events';
import { createLogger } from './logger';
import { openServiceDatabase, runMain, serve } from './service-main';
import { sweepAttachmentStorage, sweepSummary } from './attachment-sweep';
import { createStorage } from './storage/storage-config';

/** How long shutdown spends publishing the events still pending. */
const EVENTS_STOP_MS = 3000;

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, config.logFormat);
  const database = await openServiceDatabase(config, logger);
  const storage = createStorage(config.attachments, config.dataDir);
  if (config.attachments.storage.kind === 'disk') {
    // Another replica cannot serve what this pod's disk holds (README: What each replica keeps).
    logger.warn(
      { attachmentStorage: 'disk', dataDir: config.dataDir },
      "attachments are stored on this pod's disk: run one replica only, or several with ATTACHMENT_STORAGE=s3",
    );
  }
  const events =
    config.events &&
    startServiceEvents({
      settings: config.events,
      prisma: database.prisma,
      logger,
      source: config.rootUrl,
      renderers: DATA_RENDERERS,
    });
  // Bootstrap and the sweep write no organization or attachment: no change log (the app's store has it).
  const store = createStore(database);

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

  const service = composeApp({
    database,
    logger,
    rootUrl: config.rootUrl,
    settings: config.settings,
    storage,
    metricsToken: config.operations.metricsToken,
    events,
    xSyncTimeoutMs: config.xSyncTimeoutMs,
    eventsDocument: {
      streamName: config.events?.stream.name ?? EVENT_STREAM_NAME,
      subjectPrefix: config.events?.stream.subjectPrefix ?? '',
    },
  });
  const server = http.createServer(service.app.serverOptions, service.app);
  // The start-up sweep runs beside the server, never in the way of readiness.
  void sweepAttachmentStorage(store, storage).then(
    (report) => logger.info(sweepSummary(report), 'attachment sweep done'),
    (error: unknown) => logger.error({ err: error }, 'attachment sweep failed'),
  );
  serve(server, {
    config,
    logger,
    // A sweep still running is cut short: each of its steps is safe to interrupt.
    onSignal: async () => {
      await service.settled();
      // Publishes what it can in a few seconds; the rest waits in the outbox for the next start.
      await events?.stop(Date.now() + EVENTS_STOP_MS);
      await storage.close();
      await database.close();
    },
  });
}

runMain(main);
