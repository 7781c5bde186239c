import type { AttachmentPlace, AttachmentRecord } from '../domain/records';
import type { Prisma, PrismaClient } from '../generated/prisma/client';

// Where attachments are, for their change events (a consumer looks an attachment up by it): the
// repository (its owner's name and its own) and the issue's index, as the API's paths name them.

type Client = PrismaClient | Prisma.TransactionClient;

interface PlaceRow {
  ordinal: number;
  repoId: bigint;
  repoName: string;
  ownerName: string;
  issueIndex: bigint | null;
}

/**
 * The place of each of `attachments`, in their order, read in `client`: in a write's transaction,
 * as that transaction sees the repository and issue (one statement, whatever their number).
 */
export async function attachmentPlaces(
  client: Client,
  attachments: readonly AttachmentRecord[],
): Promise<AttachmentPlace[]> {
  if (attachments.length === 0) return [];
  const repoIds = attachments.map((attachment) => String(attachment.repoId));
  const issueIds = attachments.map((attachment) =>
    attachment.issueId === undefined ? null : String(attachment.issueId),
  );
  const rows = await client.$queryRaw<PlaceRow[]>`
    SELECT p.ordinal::int AS ordinal, r.id AS "repoId", r.name AS "repoName", o.name AS "ownerName",
      i.index AS "issueIndex"
    FROM unnest(${repoIds}::bigint[], ${issueIds}::bigint[]) WITH ORDINALITY AS p(repo_id, issue_id, ordinal)
    JOIN repositories r ON r.id = p.repo_id
    JOIN accounts o ON o.id = r.owner_id
    LEFT JOIN issues i ON i.id = p.issue_id`;
  const byOrdinal = new Map(rows.map((row) => [row.ordinal, row]));
  return attachments.map((attachment, index) => {
    const row = byOrdinal.get(index + 1);
    if (!row) throw new Error(`attachment ${attachment.id}: no repository ${attachment.repoId}`);
    return {
      repository: { id: Number(row.repoId), owner: row.ownerName, name: row.repoName },
      ...(row.issueIndex === null ? {} : { issueIndex: Number(row.issueIndex) }),
    };
  });
}

/** The place of one attachment (attachmentPlaces). */
export async function attachmentPlace(
  client: Client,
  attachment: AttachmentRecord,
): Promise<AttachmentPlace> {
  const [place] = await attachmentPlaces(client, [attachment]);
  return place!;
}
