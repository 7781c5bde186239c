// Generated from apps/project-service/src/metrics/registry.ts by `npm run sync:copies`: edit that file, not this copy.
import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics, one registry per process (module state: prom-client's
 * metrics are process-wide, and several apps built in one test process share them). Every layer's
 * metrics register here (src/metrics/database-metrics.ts, src/http/metrics.ts, the events' and the
 * app's own); GET /metrics serves it.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });
