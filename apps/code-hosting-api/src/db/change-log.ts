import type { AccountRecord, AttachmentPlace, AttachmentRecord } from '../domain/records';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { statementsOf, type RunStatement } from './database';
import type { StoreDatabase } from './store-database';

// The change events of the stores' writes (docs/events.md), stated here so the stores
// depend on an interface only: src/events/code-hosting-events.ts implements it (each resource in
// its JSON API form), src/compose.ts builds it. Absent when events are off (NATS_URL unset).

export type Transaction = Prisma.TransactionClient;

/** Records one change event per write, in the transaction `tx` of that write. */
export interface ChangeLog {
  /** POST /orgs: the organization as created. */
  organizationCreated(tx: Transaction, org: AccountRecord): Promise<void>;
  /** PATCH /orgs/{org}: the organization as edited. */
  organizationUpdated(tx: Transaction, org: AccountRecord): Promise<void>;
  /** POST /orgs/{org}/rename: the organization under its new name. */
  organizationRenamed(tx: Transaction, org: AccountRecord): Promise<void>;
  /** DELETE /orgs/{org}: the organization as it was just before. */
  organizationDeleted(tx: Transaction, org: AccountRecord): Promise<void>;
  /** POST …/assets: the attachment as created, and where (src/db/attachment-places.ts). */
  attachmentCreated(tx: Transaction, attachment: AttachmentRecord, place: AttachmentPlace): Promise<void>;
  /** PATCH …/assets/{id} with a new name: the attachment as renamed, and where. */
  attachmentRenamed(tx: Transaction, attachment: AttachmentRecord, place: AttachmentPlace): Promise<void>;
  /** DELETE …/assets/{id}: the attachment as it was just before, and where it was. */
  attachmentDeleted(tx: Transaction, attachment: AttachmentRecord, place: AttachmentPlace): Promise<void>;
}

/** Where a write runs: Prisma's client and a RunStatement, both on the write's transaction when it has one. */
export interface WriteClient {
  prisma: PrismaClient | Transaction;
  run: RunStatement;
}

/**
 * Runs `write`, one path whether change events are on or off. Without a change log on the
 * database as it is (no transaction); with one, in a transaction that then records the change
 * (`record`, given what the write returned), so the event commits or rolls back with it.
 */
export async function writeRecorded<T>(
  database: StoreDatabase,
  changes: ChangeLog | undefined,
  write: (client: WriteClient) => Promise<T>,
  record: (changes: ChangeLog, tx: Transaction, written: T) => Promise<void>,
): Promise<T> {
  if (!changes) return write({ prisma: database.prisma, run: database.query });
  return database.prisma.$transaction(async (tx) => {
    const written = await write({ prisma: tx, run: statementsOf(tx) });
    await record(changes, tx, written);
    return written;
  });
}
