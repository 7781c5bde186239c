/**
 * The baseline server: the harness's node:http and pg pool around bench/baseline/handlers.ts, with
 * the service's JWT_SECRET, ADMIN_PRINCIPALS and ADMIN_GROUP.
 */
import { serveBaseline } from '@repo/testing/bench';
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
);
