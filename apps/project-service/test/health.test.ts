import { describeHealthSurface } from '@repo/testing';
import { connectPrisma } from '../src/db/database';
import { buildApp } from '../src/http/app';
import { createLogger } from '../src/logger';
import { testAuthConfig, useProjectService } from './app';

describeHealthSurface({
  service: useProjectService(),
  withUnreachableDatabase: () => {
    // Port 1 on loopback refuses connections: a database that is down.
    const database = connectPrisma({ kind: 'postgres', url: 'postgresql://postgres@127.0.0.1:1/none' });
    const app = buildApp({ database, logger: createLogger('silent'), auth: testAuthConfig });
    return { app, close: () => database.close() };
  },
  notFoundBody: { code: '404', message: expect.any(String) },
});
