import { Router } from 'express';

/** Gitea's own health endpoint (`/api/healthz`), which existing monitoring of Gitea polls. */
export function giteaHealthRoutes(isDatabaseReady: () => Promise<boolean>): Router {
  const router = Router();
  router.get('/api/healthz', async (_req, res) => {
    const ready = await isDatabaseReady();
    res
      .status(ready ? 200 : 503)
      .type('application/health+json')
      .json({ status: ready ? 'pass' : 'fail', description: 'code-hosting-api' });
  });
  return router;
}
