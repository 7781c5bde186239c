// Generated from apps/project-service/src/http/health.ts by `npm run sync:copies`: edit that file, not this copy.
import { Router, type Request, type Response } from 'express';

let stopping = false;

/** From the shutdown signal on, readiness answers 503 so that load balancers stop routing here (src/lifecycle.ts). */
export function markStopping(): void {
  stopping = true;
}

/** Why readiness is 503. */
export type UnreadyReason = 'shutting down' | 'database unavailable';

/** How a service words its probes' answers: each app passes its own (its README shows them). */
export interface ProbeAnswers {
  ready(req: Request, res: Response): void;
  unready(req: Request, res: Response, reason: UnreadyReason): void;
}

/** Kubernetes probes: liveness is the process, readiness is the database and not shutting down. */
export function healthRoutes(isDatabaseReady: () => Promise<boolean>, answers: ProbeAnswers): Router {
  const router = Router();
  router.get('/livez', (req, res) => {
    answers.ready(req, res);
  });
  router.get('/readyz', async (req, res) => {
    if (stopping) answers.unready(req, res, 'shutting down');
    else if (await isDatabaseReady()) answers.ready(req, res);
    else answers.unready(req, res, 'database unavailable');
  });
  return router;
}
