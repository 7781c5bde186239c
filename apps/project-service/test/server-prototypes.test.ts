import { describeServerPrototypes } from '@repo/testing';
import { connectPrisma } from '../src/db/database';
import { buildApp } from '../src/http/app';
import { createLogger } from '../src/logger';
import { testAuthConfig } from './app';

describeServerPrototypes({
  app: () => {
    // No database is needed: the liveness probe and an unknown path never ask it.
    const database = connectPrisma({ kind: 'postgres', url: 'postgresql://postgres@127.0.0.1:1/none' });
    const app = buildApp({ database, logger: createLogger('silent'), auth: testAuthConfig });
    return { app, close: () => database.close() };
  },
  paths: ['/livez', '/no-such-path'],
});
