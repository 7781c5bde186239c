import type { Writable } from 'node:stream';
import { useTestApp } from '@repo/testing';
import { connectPrisma } from '../src/db/database';
import { createStore } from '../src/db/store';
import { accountService } from '../src/domain/accounts';
import { composeApp } from '../src/compose';
import { observeDatabasePool, recordQuery } from '../src/metrics/database-metrics';
import { createLogger } from '../src/logger';
import { idleStorage, siteAdmin, testRootUrl, testSettings } from './app';

/** The real app as main.ts wires it for operations: queries timed, logs captured, an optional metrics token. */
export function useObservedCodeHostingApi(
  options: { logDestination?: Writable; logLevel?: string; metricsToken?: string } = {},
) {
  return useTestApp(async (source) => {
    const database = connectPrisma(source, { onQuery: recordQuery });
    observeDatabasePool(database);
    await accountService(createStore(database), testSettings).bootstrapAdmin(siteAdmin, false);
    const { app } = composeApp({
      database,
      logger: createLogger(options.logLevel ?? 'silent', options.logDestination),
      rootUrl: testRootUrl,
      settings: testSettings,
      storage: idleStorage,
      metricsToken: options.metricsToken,
    });
    return { app, close: () => database.close() };
  });
}
