import type { Project } from '../domain/records';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { MEMBERS, PROJECT_COLUMNS, type ProjectWithMembersRow } from './project-read';
import { projectOf } from './row-mappers';

// The snapshot command's reads (src/events/command-config.ts): every project, a batch at a time.

/** Up to `limit` project uids after `after` (from the first when undefined), in uid order. */
export async function projectUidsAfter(
  client: PrismaClient | Prisma.TransactionClient,
  after: string | undefined,
  limit: number,
): Promise<string[]> {
  const rows = await client.$queryRaw<{ uid: string }[]>`
    SELECT uid::text AS uid FROM projects
    WHERE ${after ?? null}::uuid IS NULL OR uid > ${after ?? null}::uuid
    ORDER BY uid LIMIT ${limit}`;
  return rows.map((row) => row.uid);
}

/** The projects of `uids` that exist, with their members. */
export async function projectsByUid(
  transaction: Prisma.TransactionClient,
  uids: string[],
): Promise<Project[]> {
  const rows = await transaction.$queryRaw<ProjectWithMembersRow[]>`
    SELECT ${PROJECT_COLUMNS}, ${MEMBERS} FROM projects p WHERE p.uid = ANY(${uids}::uuid[])`;
  return rows.map(projectOf);
}
