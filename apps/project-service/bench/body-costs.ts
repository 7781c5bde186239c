/**
 * The body-cost bench: what the most expensive ~1 MiB body of each format (JSON, XML, gob) costs
 * the running service (bench/worst-case-bodies.ts), through @repo/testing/bench's benchBodyCosts:
 * CPU ms per request, the time to the answer, and the longest /livez waited while four ran at once.
 *
 *   pnpm run bench:bodies       (npm run bench:bodies -- project-service at the root)
 */
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { benchBodyCosts } from '@repo/testing/bench';
import { ADMIN } from './seed';
import { worstCaseBodies } from './worst-case-bodies';

const JWT_SECRET = 'project-service-bench-secret-0123456789';
const token = jwt.sign({ principal: ADMIN, sub: ADMIN }, JWT_SECRET, {
  algorithm: 'HS256',
  expiresIn: '12h',
});
/** A parent that need not exist: no body reaches the database (worst-case-bodies.ts). */
const PARENT = '00000000-0000-4000-8000-000000000000';

benchBodyCosts({
  app: 'project-service',
  appDir: path.resolve(__dirname, '..'),
  environment: { JWT_SECRET, ADMIN_PRINCIPALS: ADMIN },
  cases: async () =>
    worstCaseBodies(PARENT).map((body) => ({
      name: body.name,
      format: body.format,
      method: 'POST',
      path: '/projects',
      headers: { authorization: `Bearer ${token}`, 'content-type': body.contentType },
      body: body.body,
    })),
}).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
