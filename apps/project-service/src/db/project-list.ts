import type { Caller } from '../domain/caller';
import type { ListCursor, ListFilter, Project } from '../domain/records';
import { Prisma } from '../generated/prisma/client';
import type { RunStatement } from './database';
import { visibleToCaller } from './project-access';
import { MEMBERS, PROJECT_COLUMNS, type ProjectWithMembersRow } from './project-read';
import { projectOf } from './row-mappers';
import { fixedStatement, prepared } from './prepared-statements';

/** The keys (name, uid) of one page of the projects the caller may view, in list order, after `cursor`. */
export async function visibleKeysIn(
  run: RunStatement,
  caller: Caller,
  filter: ListFilter,
  cursor: ListCursor | undefined,
  limit: number,
): Promise<ListCursor[]> {
  const conditions: Prisma.Sql[] = [visibleToCaller(caller)];
  if (filter.parentUid !== undefined) conditions.push(Prisma.sql`p.parent_uid = ${filter.parentUid}::uuid`);
  if (filter.slug !== undefined) conditions.push(Prisma.sql`p.slug = ${filter.slug}`);
  if (filter.stage !== undefined) conditions.push(Prisma.sql`p.stage = ${filter.stage}`);
  if (filter.category !== undefined) conditions.push(Prisma.sql`p.category = ${filter.category}`);
  if (filter.public !== undefined) conditions.push(Prisma.sql`p.public = ${filter.public}`);
  if (cursor) {
    // Keyset pagination in the list order; "C" collation makes the order identical on every server.
    // A row comparison, so the index on (name COLLATE "C", uid) starts the scan at the cursor (an
    // OR of the two conditions made it read every row before the cursor: 35 ms mid-list at
    // 200,000 projects, and an unpaged list quadratic in the rows).
    conditions.push(
      Prisma.sql`(p.name COLLATE "C", p.uid) > (${cursor.name} COLLATE "C", ${cursor.uid}::uuid)`,
    );
  }
  // One text per combination of filters (a few dozen at most): prepared once per connection.
  return run<ListCursor>(
    prepared(
      'project_list_page',
      Prisma.sql`
    SELECT p.name, p.uid::text AS uid FROM projects p
    WHERE ${Prisma.join(conditions, ' AND ')}
    ORDER BY p.name COLLATE "C", p.uid
    LIMIT ${limit}`,
    ),
  );
}

/** The projects of the list's keys with their members, in the keys' order. */
const PROJECTS_BY_UID = fixedStatement<{ uids: string[] }>(
  'projects_by_uid',
  (arg) => Prisma.sql`
    SELECT ${PROJECT_COLUMNS}, ${MEMBERS}
    FROM unnest(${arg('uids')}::uuid[]) WITH ORDINALITY AS wanted(uid, position)
    JOIN projects p ON p.uid = wanted.uid
    ORDER BY wanted.position`,
);

/**
 * These projects with their members, in the order of `uids`: one statement, the members as a JSON
 * aggregate per project (Prisma's include ran a second query and built its objects twice).
 */
export async function projectsByUidIn(run: RunStatement, uids: string[]): Promise<Project[]> {
  if (uids.length === 0) return [];
  const rows = await run<ProjectWithMembersRow>(PROJECTS_BY_UID.bind({ uids }));
  // A row deleted between the two queries is simply left out.
  return rows.map(projectOf);
}
