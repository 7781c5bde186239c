/**
 * The baseline server: the harness's node:http and pg pool around bench/baseline/handlers.ts, with
 * the service's ROOT_URL.
 */
import { serveBaseline } from '@repo/testing/bench';
import { createBaseline } from './handlers';

serveBaseline(
  (query) => createBaseline({ query, rootUrl: process.env.ROOT_URL ?? 'http://localhost:3000/' }),
  '{"message":"internal error"}',
);
