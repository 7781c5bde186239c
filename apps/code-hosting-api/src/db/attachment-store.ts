import { Prisma } from '../generated/prisma/client';
import { fixedStatement } from './prepared-statements';
import type { AttachmentStore } from '../domain/attachment-store';
import type { StoreDatabase } from './store-database';
import { writeRecorded, type ChangeLog } from './change-log';
import { attachmentColumns } from './attachment-columns';
import { attachmentPlace } from './attachment-places';
import { toAttachment, type AttachmentRow } from './row-mappers';

const UUID_BATCH = 1000;

/** PATCH …/assets/{id}'s write, the attachment after: one named statement. */
const RENAME_ATTACHMENT = fixedStatement<{ id: number; name: string }>(
  'attachment_rename',
  (arg) => Prisma.sql`
    UPDATE attachments t SET name = ${arg('name')} WHERE t.id = ${arg('id')}::bigint
    RETURNING ${attachmentColumns('t')}`,
);

/** DELETE …/assets/{id}'s write, the attachment as it was. */
const DELETE_ATTACHMENT = fixedStatement<{ id: number }>(
  'attachment_delete',
  (arg) => Prisma.sql`
    DELETE FROM attachments t WHERE t.id = ${arg('id')}::bigint
    RETURNING ${attachmentColumns('t')}`,
);

/** Attachment rows; `changes` records their change events (when on). */
export function attachmentStore(database: StoreDatabase, changes?: ChangeLog): AttachmentStore {
  const { prisma } = database;
  return {
    async createAttachment(attachment, commitObject) {
      return prisma.$transaction(
        async (tx) => {
          const row = await tx.attachment.create({
            data: {
              uuid: attachment.uuid,
              repoId: BigInt(attachment.repoId),
              issueId: BigInt(attachment.issueId),
              uploaderId: BigInt(attachment.uploaderId),
              name: attachment.name,
              contentType: attachment.contentType,
              size: BigInt(attachment.size),
            },
          });
          // Gitea saves the issue's content again with the attachment included: updated_at moves.
          await tx.issue.update({
            where: { id: BigInt(attachment.issueId) },
            data: { updatedAt: new Date() },
          });
          // Row and event first, then the object: a failed commit rolls both back, and a failed
          // event record leaves no object behind.
          const created = toAttachment(row);
          if (changes) await changes.attachmentCreated(tx, created, await attachmentPlace(tx, created));
          await commitObject();
          return created;
        },
        // A commit is a rename (disk) or a HEAD request (S3); leave room for a slow bucket.
        { timeout: 30_000 },
      );
    },

    async findAttachment(id) {
      const row = await prisma.attachment.findUnique({ where: { id: BigInt(id) } });
      return row ? toAttachment(row) : undefined;
    },

    async findAttachmentByUuid(uuid) {
      const row = await prisma.attachment.findUnique({ where: { uuid } });
      return row ? toAttachment(row) : undefined;
    },

    async renameAttachment(id, name) {
      return writeRecorded(
        database,
        changes,
        async ({ run }) => {
          const [row] = await run<AttachmentRow>(RENAME_ATTACHMENT.bind({ id, name }));
          return row && toAttachment(row);
        },
        async (log, tx, renamed) => {
          if (renamed) await log.attachmentRenamed(tx, renamed, await attachmentPlace(tx, renamed));
        },
      );
    },

    async deleteAttachment(id) {
      return writeRecorded(
        database,
        changes,
        async ({ run }) => {
          // The row as the DELETE removed it: what a GET showed just before (the event's data).
          const [row] = await run<AttachmentRow>(DELETE_ATTACHMENT.bind({ id }));
          return row && toAttachment(row);
        },
        async (log, tx, deleted) => {
          if (deleted) await log.attachmentDeleted(tx, deleted, await attachmentPlace(tx, deleted));
        },
      ).then((deleted) => deleted !== undefined);
    },

    async incrementDownloadCount(id) {
      await prisma.attachment.updateMany({
        where: { id: BigInt(id) },
        data: { downloadCount: { increment: 1 } },
      });
    },

    async attachmentUuidsAmong(uuids) {
      const rows = await prisma.attachment.findMany({
        where: { uuid: { in: uuids } },
        select: { uuid: true },
      });
      return rows.map((row) => row.uuid);
    },

    async *allAttachmentUuids() {
      let after: bigint | undefined;
      for (;;) {
        const rows = await prisma.attachment.findMany({
          where: after === undefined ? {} : { id: { gt: after } },
          orderBy: { id: 'asc' },
          take: UUID_BATCH,
          select: { id: true, uuid: true },
        });
        for (const row of rows) yield row.uuid;
        if (rows.length < UUID_BATCH) return;
        after = rows[rows.length - 1]!.id;
      }
    },
  };
}
