import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client';
import {
  claimPending,
  deletePublishedBefore,
  markPublished,
  publishedAmong,
  releaseClaims,
  renewClaims,
  type OutboxRow,
} from '../db/outbox';
import type { Logger } from '../logger';
import { cloudEventJson, subjectOf } from './envelope';
import { eventPublished, eventRefused } from './event-metrics';
import { NatsUnavailableError, type NatsPublisher } from './nats-connection';

/** Each renderer by the name the outbox rows carry: the row's image → the event's data, as JSON text. */
export type DataRenderers = Readonly<Record<string, (row: OutboxRow) => string>>;

export interface RelayOptions {
  prisma: PrismaClient;
  /** The app's renderers of recorded images (its src/events/data-renderers.ts). */
  renderers: DataRenderers;
  publisher: NatsPublisher;
  logger: Logger;
  /** The events' `source`. */
  source: string;
  subjectPrefix: string;
  /** How long published events stay in the outbox. */
  retentionMs: number;
  /** Events claimed per round. */
  batchSize?: number;
  /**
   * A claim's lifetime, renewed while the round runs: past it, another relay (or this service
   * restarted) takes the events over, as this one died. Short, so a crash delays them little.
   */
  claimMs?: number;
  /** The fallback when no wake-up comes (another replica's writes, a missed signal). */
  pollMs?: number;
  /** How often published events past the retention are deleted. */
  pruneEveryMs?: number;
}

/** The relay's pace, when not the defaults (tests shorten it). */
export type RelayTuning = Partial<Pick<RelayOptions, 'batchSize' | 'claimMs' | 'pollMs' | 'pruneEveryMs'>>;

const MAX_BACKOFF_MS = 5000;
/**
 * Claims left by a relay that died are taken over this long after their last renewal: with the poll
 * (1 s) and a publish, its events are out within 10 s of a restart (docs/events.md).
 */
const CLAIM_MS = 5000;
const PRUNE_BATCH = 1000;
const PRUNE_BUDGET_MS = 500;
/** Ids this relay published lately, so a waiter arriving after the publish returns at once. */
const RECENT_IDS = 10_000;

/**
 * The event's data as JSON text: as recorded, or rendered from the image its change's statement
 * recorded. An image no renderer here knows (a newer version's, say) throws: NATS did not refuse it,
 * but its resource waits the same way (logged once, retried each round) until a service that knows
 * it publishes it.
 */
function dataOf(row: OutboxRow, renderers: DataRenderers): string {
  if (row.renderer === null) return row.data;
  const render = renderers[row.renderer];
  if (!render) throw new Error(`no renderer "${row.renderer}" for the data of event ${row.id} (${row.type})`);
  return render(row);
}

/**
 * Publishes the outbox to JetStream: claims pending events (oldest first, one relay per resource at
 * a time), publishes each resource's events in order, marks them after their PubAck. Wakes at once
 * when this process commits a change (wake()) or NATS comes back, else polls. NATS away: backs off
 * (with jitter, at most 5 s) and logs once per outage; the writes are not affected.
 */
export class OutboxRelay {
  private readonly id = randomUUID();
  private readonly batchSize: number;
  private readonly claimMs: number;
  private readonly pollMs: number;
  private readonly pruneEveryMs: number;
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeRequested = false;
  private wakeIdle: () => void = () => {};
  private failures = 0;
  private outageStarted: number | undefined;
  private lastPrune = 0;
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly recent = new Set<string>();
  private readonly refusalsLogged = new Set<string>();

  constructor(private readonly options: RelayOptions) {
    this.batchSize = options.batchSize ?? 100;
    this.claimMs = options.claimMs ?? CLAIM_MS;
    this.pollMs = options.pollMs ?? 1000;
    this.pruneEveryMs = options.pruneEveryMs ?? 60_000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** A change was committed here: publish now rather than at the next poll (but not during an outage's backoff). */
  wake(): void {
    if (this.outageStarted !== undefined) return;
    this.wakeRequested = true;
    this.wakeIdle();
  }

  /** NATS is back: end the backoff and publish now. */
  retryNow(): void {
    this.wakeRequested = true;
    this.wakeIdle();
  }

  /**
   * Resolves true once every event of `ids` is published (by this relay or another replica's), or
   * false after `timeoutMs`.
   */
  async awaitPublished(ids: string[], timeoutMs: number): Promise<boolean> {
    const pending = new Set(ids.filter((id) => !this.recent.has(id)));
    if (pending.size === 0) return true;
    return new Promise<boolean>((resolve) => {
      let settled = false;
      const finish = (published: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        clearInterval(check);
        for (const id of ids) {
          const waiting = this.waiters.get(id);
          waiting?.delete(onPublished);
          if (waiting?.size === 0) this.waiters.delete(id);
        }
        resolve(published);
      };
      const onPublished = () => {
        for (const id of pending) if (this.recent.has(id)) pending.delete(id);
        if (pending.size === 0) finish(true);
      };
      for (const id of pending) {
        const set = this.waiters.get(id) ?? new Set();
        set.add(onPublished);
        this.waiters.set(id, set);
      }
      const deadline = setTimeout(() => finish(false), timeoutMs);
      // Another replica's relay may publish it (it held the resource's claim): ask the database now and then.
      const check = setInterval(() => {
        publishedAmong(this.options.prisma, [...pending]).then(
          (published) => {
            for (const id of published) pending.delete(id);
            if (pending.size === 0) finish(true);
          },
          () => {},
        );
      }, 250);
    });
  }

  /**
   * Stops the loop, then publishes what it can until `deadline` (epoch ms); what is left waits in
   * the outbox for the next start (or another replica).
   */
  async stop(deadline: number): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wakeIdle();
    await this.loop;
    while (Date.now() < deadline && this.options.publisher.isConnected()) {
      try {
        if ((await this.publishRound()) === 0) break;
      } catch {
        break;
      }
    }
  }

  /** Publishes until nothing is pending or `deadline` passes; returns how many (commands use it). */
  async drain(deadline: number): Promise<number> {
    let total = 0;
    while (Date.now() < deadline) {
      try {
        const published = await this.publishRound();
        this.recovered();
        if (published === 0) return total;
        total += published;
      } catch (error) {
        this.failed(error);
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(this.backoffMs(), deadline - Date.now())),
        );
      }
    }
    return total;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let published = 0;
      try {
        published = await this.publishRound();
        this.recovered();
        await this.pruneWhenDue();
      } catch (error) {
        this.failed(error);
        await this.sleep(this.backoffMs());
        continue;
      }
      // A full batch: more are likely waiting.
      if (published < this.batchSize) await this.sleep(this.pollMs);
    }
  }

  /** One round: claim, publish per resource in order, mark. Throws after marking when a publish failed. */
  private async publishRound(): Promise<number> {
    this.wakeRequested = false;
    const rows = await claimPending(this.options.prisma, this.id, this.batchSize, this.claimMs);
    if (rows.length === 0) return 0;
    const byResource = new Map<string, OutboxRow[]>();
    for (const row of rows) {
      const key = `${row.aggregate}\u0000${row.resourceId}`;
      byResource.set(key, [...(byResource.get(key) ?? []), row]);
    }
    const published: string[] = [];
    const unpublished: string[] = [];
    let failure: unknown;
    // A slow round (publishes waiting for their PubAck) keeps its claims: renewed every third of
    // their life (the renewal in progress awaited before marking, so the two never contend).
    let renewing: Promise<unknown> = Promise.resolve();
    const renewal = setInterval(() => {
      renewing = renewClaims(this.options.prisma, this.id, this.claimMs).catch(() => {});
    }, this.claimMs / 3);
    try {
      await Promise.all(
        [...byResource.values()].map(async (events) => {
          for (const [index, row] of events.entries()) {
            try {
              await this.publishOne(row);
              published.push(row.id);
              // Its PubAck is what X-Sync waits for: answer the waiters now, not after the mark.
              this.remember([row.id]);
            } catch (error) {
              // The rest of this resource's events wait: publishing them now would break its order.
              unpublished.push(...events.slice(index).map((event) => event.id));
              if (this.options.publisher.isOutage(error)) failure ??= error;
              // NATS refused this one message (too large for the server's max_payload, say): only
              // its resource waits, retried each round, and the others go on.
              else this.refused(row, error);
              return;
            }
          }
        }),
      );
    } finally {
      clearInterval(renewal);
      await renewing;
    }
    await markPublished(this.options.prisma, published);
    await releaseClaims(this.options.prisma, this.id, unpublished);
    if (failure !== undefined) throw failure;
    return published.length;
  }

  private async publishOne(row: OutboxRow): Promise<void> {
    const started = performance.now();
    await this.options.publisher.publish(
      subjectOf(this.options.subjectPrefix, row.aggregate, row.resourceId, row.type),
      cloudEventJson(row, this.options.source, dataOf(row, this.options.renderers)),
      row.id,
    );
    eventPublished(row.type, (performance.now() - started) / 1000);
  }

  private remember(ids: string[]): void {
    for (const id of ids) {
      this.recent.add(id);
      if (this.recent.size > RECENT_IDS) this.recent.delete(this.recent.values().next().value as string);
      const waiting = this.waiters.get(id);
      if (waiting) {
        this.waiters.delete(id);
        for (const notify of waiting) notify();
      }
    }
  }

  private async pruneWhenDue(): Promise<void> {
    if (Date.now() - this.lastPrune < this.pruneEveryMs) return;
    this.lastPrune = Date.now();
    const before = new Date(Date.now() - this.options.retentionMs);
    // Batches until the old rows are gone, within a time budget per round (the rest next round), so
    // a large backlog never holds the relay for long and a high write rate is kept up with.
    const budgetEnds = Date.now() + PRUNE_BUDGET_MS;
    while (Date.now() < budgetEnds) {
      if ((await deletePublishedBefore(this.options.prisma, before, PRUNE_BATCH)) < PRUNE_BATCH) return;
    }
    // Not done: come back at the next round rather than after the interval.
    this.lastPrune = 0;
  }

  private refused(row: OutboxRow, error: unknown): void {
    eventRefused(row.type);
    if (this.refusalsLogged.has(row.id)) return;
    if (this.refusalsLogged.size >= RECENT_IDS) this.refusalsLogged.clear();
    this.refusalsLogged.add(row.id);
    this.options.logger.error(
      { err: error, event: row.id, type: row.type, resource: row.resourceId },
      "events: an event could not be published (NATS refused it, or its data could not be rendered); its resource's events wait (retried each round), the others go on",
    );
  }

  private failed(error: unknown): void {
    this.failures += 1;
    if (this.outageStarted !== undefined) return;
    this.outageStarted = Date.now();
    // Never connected yet: the connection has said so in its own line.
    if (error instanceof NatsUnavailableError) return;
    this.options.logger.warn(
      { err: error },
      'events: cannot publish; writes go on, events wait in the outbox (events_outbox_depth)',
    );
  }

  private recovered(): void {
    this.failures = 0;
    if (this.outageStarted === undefined) return;
    const seconds = Math.round((Date.now() - this.outageStarted) / 100) / 10;
    this.outageStarted = undefined;
    this.options.logger.info({ outageSeconds: seconds }, 'events: publishing again');
  }

  /** Exponential from 100 ms, at most 5 s, with full jitter on the upper half. */
  private backoffMs(): number {
    const ceiling = Math.min(MAX_BACKOFF_MS, 100 * 2 ** Math.min(this.failures, 10));
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  /** Waits `ms`, or less when woken (a commit here, NATS back, stop). */
  private sleep(ms: number): Promise<void> {
    if (this.wakeRequested || !this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeIdle = done;
    });
  }
}
