import { Router } from 'express';

/** Kubernetes probes: liveness is the process, readiness is the database. */
export function healthRoutes(isDatabaseReady: () => Promise<boolean>): Router {
  const router = Router();
  router.get('/livez', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const ready = await isDatabaseReady();
    res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'database unavailable' });
  });
  return router;
}
