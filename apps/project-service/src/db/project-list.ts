import type { Caller } from '../domain/caller';
import type { ListCursor, ListFilter, Project } from '../domain/records';
import { Prisma } from '../generated/prisma/client';
import { visibleToCaller } from './project-access';
import { projectOf, withMembers } from './row-mappers';

/** The keys (name, uid) of one page of the projects the caller may view, in list order, after `cursor`. */
export async function visibleKeysIn(
  client: Prisma.TransactionClient,
  caller: Caller,
  filter: ListFilter,
  cursor: ListCursor | undefined,
  limit: number,
): Promise<ListCursor[]> {
  const visible = visibleToCaller(caller);
  const conditions: Prisma.Sql[] = [visible.condition];
  if (filter.parentUid !== undefined) conditions.push(Prisma.sql`p.parent_uid = ${filter.parentUid}::uuid`);
  if (filter.slug !== undefined) conditions.push(Prisma.sql`p.slug = ${filter.slug}`);
  if (filter.stage !== undefined) conditions.push(Prisma.sql`p.stage = ${filter.stage}`);
  if (filter.category !== undefined) conditions.push(Prisma.sql`p.category = ${filter.category}`);
  if (filter.public !== undefined) conditions.push(Prisma.sql`p.public = ${filter.public}`);
  if (cursor) {
    // Keyset pagination in the list order; "C" collation makes the order identical on every server.
    conditions.push(
      Prisma.sql`(p.name COLLATE "C" > ${cursor.name} COLLATE "C" OR (p.name = ${cursor.name} AND p.uid > ${cursor.uid}::uuid))`,
    );
  }
  return client.$queryRaw<ListCursor[]>`
    ${visible.withGranted}
    SELECT p.name, p.uid::text AS uid FROM projects p
    WHERE ${Prisma.join(conditions, ' AND ')}
    ORDER BY p.name COLLATE "C", p.uid
    LIMIT ${limit}`;
}

/** These projects with their members, in the order of `uids`. */
export async function projectsByUidIn(client: Prisma.TransactionClient, uids: string[]): Promise<Project[]> {
  if (uids.length === 0) return [];
  const projects = await client.project.findMany({
    where: { uid: { in: uids } },
    include: withMembers,
  });
  const byUid = new Map(projects.map((row) => [row.uid, row]));
  // A row deleted between the two queries is simply left out.
  return uids.flatMap((uid) => {
    const row = byUid.get(uid);
    return row ? [projectOf(row)] : [];
  });
}
