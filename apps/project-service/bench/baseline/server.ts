/**
 * The baseline server: the harness's node:http and pg pool around bench/baseline/handlers.ts, with
 * the service's JWT_SECRET, ADMIN_PRINCIPALS and ADMIN_GROUP. Under BASELINE_LAYER=observed, the
 * service's own request observation (request id, access log at LOG_LEVEL, metrics) runs first.
 */
import { serveBaseline } from '@repo/testing/bench';
import { expressServerOptions } from '../../src/http/express-server';
import { observeRequests } from '../../src/http/request-observation';
import { createLogger } from '../../src/logger';
import { UNTRACED_PATHS } from '../../src/untraced-paths';
import { createBaseline } from './handlers';

serveBaseline(
  (query) =>
    createBaseline({
      query,
      jwtSecret: process.env.JWT_SECRET ?? '',
      adminPrincipals: (process.env.ADMIN_PRINCIPALS ?? '').split(',').filter(Boolean),
      adminGroup: process.env.ADMIN_GROUP ?? 'project-admins',
    }),
  '{"code":"500","message":"internal error"}',
  {
    serverOptions: expressServerOptions,
    observe: (app) =>
      observeRequests(app, {
        logger: createLogger(process.env.LOG_LEVEL ?? 'warn'),
        quietPaths: UNTRACED_PATHS,
      }),
  },
);
