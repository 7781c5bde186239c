import { createErrorHandler, routeNotFound } from '@repo/http-errors';
import express, { type Express } from 'express';
import { pinoHttp } from 'pino-http';
import type { Database } from '../db/database';
import type { Logger } from '../logger';
import { healthRoutes } from './health';
import { requestId } from './request-id';

export interface AppDependencies {
  database: Database;
  logger: Logger;
}

/** Builds the Express app; listening is main.ts's job, so tests run the very same app. */
export function buildApp({ database, logger }: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(pinoHttp({ logger, genReqId: requestId }));
  app.use(healthRoutes(() => database.isReady()));
  app.use(routeNotFound());
  app.use(
    createErrorHandler({
      formatBody: (error) => ({ code: String(error.status), message: error.message }),
    }),
  );
  return app;
}
