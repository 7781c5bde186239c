import { randomUUID } from 'node:crypto';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { prepared } from './prepared-statements';

// The transactional outbox (event_outbox, event_sequences): change events written in the
// transaction of their change, then claimed, published and marked by the relay (src/events/relay.ts).

/** A change to record: the relay builds the CloudEvent from it (src/events/envelope.ts). */
export interface ChangeEvent {
  /** The CloudEvents type, e.g. `project.created`. */
  type: string;
  /** The subject's aggregate, e.g. `projects`. */
  aggregate: string;
  /** The resource's stable id. */
  resourceId: string;
  /** The resource as the JSON API answers (already in its wire form). */
  data: unknown;
}

/** Who made a change: the request's actor and id, absent for changes made outside requests. */
export interface ChangeOrigin {
  actor?: string;
  requestId?: string;
}

/** A recorded event, as the relay reads it back. */
export interface OutboxRow {
  position: bigint;
  id: string;
  aggregate: string;
  resourceId: string;
  sequence: bigint;
  type: string;
  /**
   * The resource, as the JSON text it was recorded as (published as is, never parsed); when
   * `renderer` is set, the image of the changed rows that renderer makes the data of.
   */
  data: string;
  /** Null, or the name of the app's renderer of `data` (src/events/data-renderers.ts). */
  renderer: string | null;
  actor: string | null;
  requestId: string | null;
  occurredAt: Date;
}

type Client = PrismaClient | Prisma.TransactionClient;

/**
 * Records `event` in the transaction `client` is part of, with the resource's next sequence number;
 * returns its id. Taking the number locks the resource's event_sequences row until the transaction
 * ends, so the writes of one resource number their events in commit order.
 */
export async function recordEvent(client: Client, event: ChangeEvent, origin: ChangeOrigin): Promise<string> {
  const id = randomUUID();
  await client.$executeRaw(
    prepared(
      'outbox_record_event',
      Prisma.sql`
    WITH next AS (
      INSERT INTO event_sequences (aggregate, resource_id, last_sequence)
      VALUES (${event.aggregate}, ${event.resourceId}, 1)
      ON CONFLICT (aggregate, resource_id) DO UPDATE SET last_sequence = event_sequences.last_sequence + 1
      RETURNING last_sequence
    )
    INSERT INTO event_outbox (id, aggregate, resource_id, sequence, type, data, actor, request_id, occurred_at)
    SELECT ${id}::uuid, ${event.aggregate}, ${event.resourceId}, next.last_sequence, ${event.type},
      ${JSON.stringify(event.data)}::json, ${origin.actor ?? null}, ${origin.requestId ?? null}, clock_timestamp()
    FROM next`,
    ),
  );
  return id;
}

/**
 * An event that the statement of its change records (outboxInsert), so that the change and its
 * event are one statement, one round trip: what is known of it before the statement runs.
 */
export interface PlannedEvent {
  id: string;
  type: string;
  aggregate: string;
  /** The renderer that makes the event's data of the image the statement records. */
  renderer: string;
  origin: ChangeOrigin;
}

/** A PlannedEvent with a new id. */
export function planEvent(
  type: string,
  aggregate: string,
  renderer: string,
  origin: ChangeOrigin,
): PlannedEvent {
  return { id: randomUUID(), type, aggregate, renderer, origin };
}

/**
 * The WITH items (`outbox_sequence`, `outbox_event`; the caller puts the comma before them) that
 * record `event` for the row of `changed`, a relation of the statement (a CTE) with one row when the
 * change was made and none when not (then nothing is recorded and no number taken). `resourceId`
 * and `image` are expressions over `changed` as `r`. The sequence number is taken as recordEvent
 * takes it, after the change's own row locks (the INSERT reads `changed` first), so the numbers of
 * a resource's events follow the commit order of its changes.
 */
export function outboxInsert(
  event: PlannedEvent,
  changed: Prisma.Sql,
  resourceId: Prisma.Sql,
  image: Prisma.Sql,
): Prisma.Sql {
  return Prisma.sql`outbox_sequence AS (
      INSERT INTO event_sequences (aggregate, resource_id, last_sequence)
      SELECT ${event.aggregate}, ${resourceId}, 1 FROM ${changed} r
      ON CONFLICT (aggregate, resource_id) DO UPDATE SET last_sequence = event_sequences.last_sequence + 1
      RETURNING last_sequence
    ), outbox_event AS (
      INSERT INTO event_outbox (id, aggregate, resource_id, sequence, type, data, renderer, actor, request_id, occurred_at)
      SELECT ${event.id}::uuid, ${event.aggregate}, ${resourceId}, s.last_sequence, ${event.type}, ${image},
        ${event.renderer}, ${event.origin.actor ?? null}, ${event.origin.requestId ?? null}, clock_timestamp()
      FROM outbox_sequence s, ${changed} r
    )`;
}

/** An event_outbox row `o` as an OutboxRow. */
const ROW_COLUMNS = Prisma.sql`o.position, o.id::text AS id, o.aggregate, o.resource_id AS "resourceId", o.sequence,
  o.type, o.data::text AS data, o.renderer, o.actor, o.request_id AS "requestId", o.occurred_at AS "occurredAt"`;

/**
 * Claims up to `limit` pending events for `relay` until `claimMs` from now, oldest first, skipping
 * the resources another relay has a live claim on (so one resource's events are published by one
 * relay at a time, in order). Claims are taken one relay at a time (a transaction-scoped advisory
 * lock), so two relays never take events of the same resource in the same instant.
 */
export async function claimPending(
  prisma: PrismaClient,
  relay: string,
  limit: number,
  claimMs: number,
): Promise<OutboxRow[]> {
  // A batch transaction (the two statements sent one after the other, no interactive round of the
  // client in between); in READ COMMITTED the claim's snapshot is taken once the lock is held.
  const [, claimed] = await prisma.$transaction([
    prisma.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('event_outbox:claim'))`,
    prisma.$queryRaw<OutboxRow[]>(
      prepared(
        'outbox_claim',
        Prisma.sql`
      WITH busy AS (
        -- The resources another relay holds a live claim on: none of their events is taken here
        -- (an earlier one may be in its hands), whatever their position. Found once, not per row,
        -- so a backlog of one resource costs a scan, not a scan per event.
        SELECT DISTINCT b.aggregate, b.resource_id FROM event_outbox b
        WHERE b.published_at IS NULL AND b.claimed_by <> ${relay} AND b.claimed_until >= clock_timestamp()
      ), candidates AS (
        SELECT o.position FROM event_outbox o
        WHERE o.published_at IS NULL
          AND (o.claimed_until IS NULL OR o.claimed_until < clock_timestamp() OR o.claimed_by = ${relay})
          AND NOT EXISTS (
            SELECT 1 FROM busy WHERE busy.aggregate = o.aggregate AND busy.resource_id = o.resource_id
          )
        ORDER BY o.position
        LIMIT ${limit}
        -- Not SKIP LOCKED: a row locked for a moment by another relay's mark, renewal or release
        -- would be skipped while its lapsed claim let a later event of its resource through.
        FOR UPDATE
      )
      UPDATE event_outbox o
      SET claimed_by = ${relay}, claimed_until = clock_timestamp() + make_interval(secs => ${claimMs / 1000})
      FROM candidates c WHERE o.position = c.position
      RETURNING ${ROW_COLUMNS}`,
      ),
    ),
  ]);
  return claimed;
}

/** Marks events published (their PubAck came back) and ends their claims. */
export async function markPublished(prisma: PrismaClient, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await prisma.$executeRaw(
    prepared(
      'outbox_mark_published',
      Prisma.sql`
    UPDATE event_outbox SET published_at = clock_timestamp(), claimed_by = NULL, claimed_until = NULL
    WHERE id = ANY(${ids}::uuid[])`,
    ),
  );
}

/**
 * Extends `relay`'s claims on the events it has not published yet to `claimMs` from now (it is still
 * publishing them); returns how many.
 */
export async function renewClaims(prisma: PrismaClient, relay: string, claimMs: number): Promise<number> {
  return prisma.$executeRaw`
    UPDATE event_outbox SET claimed_until = clock_timestamp() + make_interval(secs => ${claimMs / 1000})
    WHERE claimed_by = ${relay} AND published_at IS NULL AND claimed_until >= clock_timestamp()`;
}

/** Gives back `relay`'s claims on events it could not publish, for the next attempt (by any relay). */
export async function releaseClaims(prisma: PrismaClient, relay: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await prisma.$executeRaw`
    UPDATE event_outbox SET claimed_by = NULL, claimed_until = NULL
    WHERE id = ANY(${ids}::uuid[]) AND claimed_by = ${relay} AND published_at IS NULL
      AND claimed_until >= clock_timestamp()`;
}

/** The events among `ids` that are published (by any relay). */
export async function publishedAmong(prisma: PrismaClient, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM event_outbox WHERE id = ANY(${ids}::uuid[]) AND published_at IS NOT NULL`;
  return new Set(rows.map((row) => row.id));
}

/** Events not yet published, and the age of the oldest (0 when none), by the database's clock. */
export async function outboxBacklog(prisma: PrismaClient): Promise<{ depth: number; oldestSeconds: number }> {
  const [row] = await prisma.$queryRaw<{ depth: number; oldest: number | null }[]>`
    SELECT count(*)::int AS depth,
      EXTRACT(EPOCH FROM clock_timestamp() - min(occurred_at))::float8 AS oldest
    FROM event_outbox WHERE published_at IS NULL`;
  return { depth: row?.depth ?? 0, oldestSeconds: Math.max(0, row?.oldest ?? 0) };
}

/** Deletes up to `batch` events published before `before`; returns how many. */
export async function deletePublishedBefore(
  prisma: PrismaClient,
  before: Date,
  batch: number,
): Promise<number> {
  return prisma.$executeRaw`
    DELETE FROM event_outbox WHERE position IN (
      SELECT position FROM event_outbox
      WHERE published_at IS NOT NULL AND published_at < ${before}::timestamptz
      ORDER BY position LIMIT ${batch}
    )
    -- Again here: a row a replay requeued meanwhile is rechecked against this, not the subquery.
    AND published_at IS NOT NULL AND published_at < ${before}::timestamptz`;
}

/** Where a replay starts: the events recorded at or after a time, or from an event's id on. */
export type ReplayStart = { since: Date } | { fromId: string };

/**
 * Puts the retained events from `start` on back in the relay's queue (same ids), in their order.
 * Returns how many; undefined when `fromId` names no retained event.
 */
export async function requeueForReplay(
  prisma: PrismaClient,
  start: ReplayStart,
): Promise<number | undefined> {
  if ('fromId' in start) {
    const [first] = await prisma.$queryRaw<{ position: bigint }[]>`
      SELECT position FROM event_outbox WHERE id = ${start.fromId}::uuid`;
    if (!first) return undefined;
    return prisma.$executeRaw`
      UPDATE event_outbox SET published_at = NULL WHERE position >= ${first.position} AND published_at IS NOT NULL`;
  }
  return prisma.$executeRaw`
    UPDATE event_outbox SET published_at = NULL
    WHERE occurred_at >= ${start.since}::timestamptz AND published_at IS NOT NULL`;
}

/**
 * Locks the event_sequences rows of `resourceIds` until the transaction `client` is part of ends
 * (creating the missing ones at 0), in one fixed order (so two callers never deadlock). A write of
 * one of these resources takes its next number from the same row (recordEvent), so once this
 * returns, every write of them either committed before (what the transaction reads next shows it,
 * and its event has a lower number) or waits for this transaction and numbers its event after
 * those recorded here. The snapshot command reads the resources' state under these locks.
 */
export async function lockSequences(client: Client, aggregate: string, resourceIds: string[]): Promise<void> {
  if (resourceIds.length === 0) return;
  // One row once: ON CONFLICT cannot update the same row twice in one statement.
  const ids = [...new Set(resourceIds)];
  await client.$executeRaw`
    INSERT INTO event_sequences (aggregate, resource_id, last_sequence)
    SELECT ${aggregate}, id, 0 FROM unnest(${ids}::text[]) AS id ORDER BY id COLLATE "C"
    ON CONFLICT (aggregate, resource_id) DO UPDATE SET last_sequence = event_sequences.last_sequence`;
}

/** The last sequence number of each of `resourceIds` (0 for one without events). */
export async function lastSequences(
  client: Client,
  aggregate: string,
  resourceIds: string[],
): Promise<Map<string, bigint>> {
  const rows = await client.$queryRaw<{ resourceId: string; last: bigint }[]>`
    SELECT resource_id AS "resourceId", last_sequence AS last FROM event_sequences
    WHERE aggregate = ${aggregate} AND resource_id = ANY(${resourceIds}::text[])`;
  return new Map(resourceIds.map((id) => [id, rows.find((row) => row.resourceId === id)?.last ?? 0n]));
}

/** The position of the last event recorded so far (0 when none). */
export async function lastPosition(prisma: PrismaClient): Promise<bigint> {
  const [row] = await prisma.$queryRaw<
    { last: bigint | null }[]
  >`SELECT max(position) AS last FROM event_outbox`;
  return row?.last ?? 0n;
}

/** How many events up to `position` are not published yet. */
export async function pendingThrough(prisma: PrismaClient, position: bigint): Promise<number> {
  const [row] = await prisma.$queryRaw<{ pending: number }[]>`
    SELECT count(*)::int AS pending FROM event_outbox WHERE published_at IS NULL AND position <= ${position}`;
  return row?.pending ?? 0;
}

/** One aggregate's resources, as the snapshot command reads them (each app has its own: src/events/command-config.ts). */
export interface SnapshotReader {
  /** The subjects' aggregate, e.g. `projects`. */
  aggregate: string;
  /** The snapshot event's type, e.g. `project.snapshot`. */
  type: string;
  /** Up to `limit` resource ids after `after` (from the first when undefined), always in one order. */
  idsAfter(client: Client, after: string | undefined, limit: number): Promise<string[]>;
  /** The representation (`data`) of each of `ids` that still exists, read in `transaction`. */
  read(transaction: Prisma.TransactionClient, ids: string[]): Promise<Map<string, unknown>>;
}

/**
 * Records a `reader.type` event with the current state of every resource of `reader`, `batchSize`
 * resources per transaction; returns how many. In each transaction the resources' sequences are
 * locked first (lockSequences), then their state is read, then the events are recorded: a write
 * running meanwhile either committed before (its state is in the snapshot, its event numbered
 * before it) or is numbered after the snapshot, so a consumer folding events in sequence order
 * ends with the current state either way. A system change: no actor, no request id.
 */
export async function recordSnapshots(
  prisma: PrismaClient,
  reader: SnapshotReader,
  batchSize: number,
): Promise<number> {
  let recorded = 0;
  let after: string | undefined;
  for (;;) {
    const ids = await reader.idsAfter(prisma, after, batchSize);
    if (ids.length === 0) return recorded;
    recorded += await prisma.$transaction(
      async (tx) => {
        await lockSequences(tx, reader.aggregate, ids);
        const states = await reader.read(tx, ids);
        let count = 0;
        for (const id of ids) {
          const data = states.get(id);
          // Deleted since its id was listed: its deleted event says so.
          if (data === undefined) continue;
          await recordEvent(tx, { type: reader.type, aggregate: reader.aggregate, resourceId: id, data }, {});
          count += 1;
        }
        return count;
      },
      { maxWait: 10_000, timeout: 60_000 },
    );
    if (ids.length < batchSize) return recorded;
    after = ids[ids.length - 1];
  }
}
