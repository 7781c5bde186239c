/**
 * The service as main.ts runs it, minus shutdown handling, with the unpaged-list bound read from
 * UNPAGED_LIST_CONCURRENCY / UNPAGED_LIST_QUEUE_MS: what bench/list-memory.ts measures.
 */
import http from 'node:http';
import { loadConfig } from '../src/config';
import { connectPrisma, openDatabaseAt } from '../src/db/database';
import { composeApp } from '../src/compose';
import { ConcurrencyGate } from '../src/http/concurrency-gate';
import { createLogger } from '../src/logger';

async function main(): Promise<void> {
  const config = loadConfig();
  const location = await openDatabaseAt(config.database);
  const database = connectPrisma(location.source, { onClose: location.close });
  const app = composeApp({
    database,
    logger: createLogger(config.logLevel),
    auth: config.auth,
    unpagedLists: new ConcurrencyGate(config.unpagedLists),
  });
  http.createServer(app).listen(config.port);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
