// Generated from apps/project-service/src/events/event-metrics.ts by `npm run sync:copies`: edit that file, not this copy.
import { Counter, Gauge, Histogram } from 'prom-client';
import type { PrismaClient } from '../generated/prisma/client';
import { outboxBacklog } from '../db/outbox';
import { registry } from '../metrics/registry';

// The change events' metrics (src/events), in the service's registry. The outbox gauges are read
// from the database when scraped, so every replica reports the shared outbox.

const published = new Counter({
  name: 'events_published_total',
  help: 'Change events published to JetStream and acknowledged, by type',
  labelNames: ['type'] as const,
  registers: [registry],
});

const refused = new Counter({
  name: 'events_publish_refused_total',
  help: 'Publishes of a change event NATS refused (the message itself, not an outage), by type; retried each round',
  labelNames: ['type'] as const,
  registers: [registry],
});

const publishDuration = new Histogram({
  name: 'events_publish_seconds',
  help: "Time from publishing a change event to JetStream's acknowledgement",
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

let backlog: (() => ReturnType<typeof outboxBacklog>) | undefined;
let lastBacklog: Promise<{ depth: number; oldestSeconds: number }> | undefined;

/** One database read per scrape for both gauges. */
function readBacklog() {
  lastBacklog ??= (backlog?.() ?? Promise.resolve({ depth: 0, oldestSeconds: 0 })).finally(() => {
    setImmediate(() => {
      lastBacklog = undefined;
    });
  });
  return lastBacklog;
}

new Gauge({
  name: 'events_outbox_depth',
  help: 'Change events recorded and not yet published',
  registers: [registry],
  async collect() {
    if (!backlog) return;
    // The database unreachable: the last value stays (the database's own metrics tell why).
    const read = await readBacklog().catch(() => undefined);
    if (read) this.set(read.depth);
  },
});

new Gauge({
  name: 'events_outbox_oldest_seconds',
  help: 'Age of the oldest change event not yet published (0 when none)',
  registers: [registry],
  async collect() {
    if (!backlog) return;
    const read = await readBacklog().catch(() => undefined);
    if (read) this.set(read.oldestSeconds);
  },
});

/** Reports the outbox of `prisma` in the gauges (events on). */
export function observeOutbox(prisma: PrismaClient): void {
  backlog = () => outboxBacklog(prisma);
}

export function eventPublished(type: string, seconds: number): void {
  published.inc({ type });
  publishDuration.observe(seconds);
}

export function eventRefused(type: string): void {
  refused.inc({ type });
}
