import type { AccountRecord, AttachmentRecord } from '../domain/records';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { toAccount, toAttachment } from './row-mappers';

// The snapshot command's reads (src/events/command-config.ts): every organization and every
// attachment, a batch at a time, in id order.

type Client = PrismaClient | Prisma.TransactionClient;

const afterId = (after: string | undefined) => (after === undefined ? {} : { id: { gt: BigInt(after) } });

/** Up to `limit` organization ids after `after` (from the first when undefined). */
export async function organizationIdsAfter(client: Client, after: string | undefined, limit: number) {
  const rows = await client.account.findMany({
    where: { type: 'organization', ...afterId(after) },
    orderBy: { id: 'asc' },
    take: limit,
    select: { id: true },
  });
  return rows.map((row) => row.id.toString());
}

/** The organizations of `ids` that exist. */
export async function organizationsById(client: Client, ids: string[]): Promise<AccountRecord[]> {
  const rows = await client.account.findMany({
    where: { type: 'organization', id: { in: ids.map(BigInt) } },
    omit: { passwordHash: true },
  });
  return rows.map(toAccount);
}

/** Up to `limit` attachment ids after `after` (from the first when undefined). */
export async function attachmentIdsAfter(client: Client, after: string | undefined, limit: number) {
  const rows = await client.attachment.findMany({
    where: afterId(after),
    orderBy: { id: 'asc' },
    take: limit,
    select: { id: true },
  });
  return rows.map((row) => row.id.toString());
}

/** The attachments of `ids` that exist. */
export async function attachmentsById(client: Client, ids: string[]): Promise<AttachmentRecord[]> {
  const rows = await client.attachment.findMany({ where: { id: { in: ids.map(BigInt) } } });
  return rows.map(toAttachment);
}
