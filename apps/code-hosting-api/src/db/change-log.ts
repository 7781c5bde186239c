import type { AccountRecord, AttachmentPlace, AttachmentRecord } from '../domain/records';
import type { Prisma, PrismaClient } from '../generated/prisma/client';

// The change events of the stores' writes (docs/events.md), stated here so the stores
// depend on an interface only: src/events/code-hosting-events.ts implements it (each resource in
// its JSON API form), src/http/app.ts builds it. Absent when events are off (NATS_URL unset).

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

/**
 * Runs `write`. Without a change log exactly as it is (on `prisma`, no transaction); with one, in
 * a transaction that then records the change (`record`, given what the write returned), so the
 * event commits or rolls back with it.
 */
export async function writeRecorded<T>(
  prisma: PrismaClient,
  changes: ChangeLog | undefined,
  write: (client: PrismaClient | Transaction) => Promise<T>,
  record: (changes: ChangeLog, tx: Transaction, written: T) => Promise<void>,
): Promise<T> {
  if (!changes) return write(prisma);
  return prisma.$transaction(async (tx) => {
    const written = await write(tx);
    await record(changes, tx, written);
    return written;
  });
}
