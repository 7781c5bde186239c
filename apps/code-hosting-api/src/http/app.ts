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
  rootUrl: string;
}

/** Builds the Express app; listening is main.ts's job, so tests run the very same app. */
export function buildApp({ database, logger, rootUrl }: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(pinoHttp({ logger, genReqId: requestId }));
  app.use(healthRoutes(() => database.isReady()));
  app.use(routeNotFound());
  app.use(
    createErrorHandler({
      // Gitea's error body, for every status; request validation fails with 422 as in Gitea.
      formatBody: (error) => ({ message: error.message, url: `${rootUrl}api/swagger` }),
      validationStatus: 422,
    }),
  );
  return app;
}
