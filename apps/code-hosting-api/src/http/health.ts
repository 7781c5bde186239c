// Generated from apps/project-service/src/http/health.ts by `npm run sync:copies`: edit that file, not this copy.
import { Router } from 'express';

let stopping = false;

/** From the shutdown signal on, readiness answers 503 so that load balancers stop routing here (src/lifecycle.ts). */
export function markStopping(): void {
  stopping = true;
}

/** Kubernetes probes: liveness is the process, readiness is the database and not shutting down. */
export function healthRoutes(isDatabaseReady: () => Promise<boolean>): Router {
  const router = Router();
  router.get('/livez', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    if (stopping) {
      res.status(503).json({ status: 'shutting down' });
      return;
    }
    const ready = await isDatabaseReady();
    res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'database unavailable' });
  });
  return router;
}
