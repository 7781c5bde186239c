/**
 * The baseline server: the harness's node:http and pg pool around bench/baseline/handlers.ts, with
 * the service's ROOT_URL. Under BASELINE_LAYER=observed, the service's own request observation
 * (request id, access log at LOG_LEVEL, metrics) runs first, as app.ts sets it up.
 */
import { serveBaseline } from '@repo/testing/bench';
import { expressServerOptions } from '../../src/http/express-server';
import { observeRequests } from '../../src/http/request-observation';
import { redactedRequest } from '../../src/log-secrets';
import { createLogger } from '../../src/logger';
import { UNTRACED_PATHS } from '../../src/untraced-paths';
import { createBaseline } from './handlers';

serveBaseline(
  (query) => createBaseline({ query, rootUrl: process.env.ROOT_URL ?? 'http://localhost:3000/' }),
  '{"message":"internal error"}',
  {
    serverOptions: expressServerOptions,
    observe: (app) =>
      observeRequests(app, {
        logger: createLogger(process.env.LOG_LEVEL ?? 'warn'),
        quietPaths: UNTRACED_PATHS,
        serializeRequest: (req) => {
          const { id, method, url } = redactedRequest(req);
          return { id, method, url };
        },
      }),
  },
);
