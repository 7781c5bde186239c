import type { ChainMembership } from '../domain/access';
import type { Caller } from '../domain/caller';
import { Prisma } from '../generated/prisma/client';
import type { RunStatement } from './database';
import { fixedStatement } from './prepared-statements';

/**
 * The role model in SQL. Its one TypeScript statement is accessOf() in src/domain/access.ts
 * (writers and auditors inherit down the tree; a writer is an auditor; a viewer is an auditor,
 * or anyone when the project is public). The two queries here feed it or restate it:
 *
 * - membershipCte (and membershipAlongChain, which runs it alone): the facts accessOf() decides
 *   on, for one project; src/db/project-read.ts reads them in the same statement as the project;
 * - visibleToCaller: accessOf().view for every project at once, for the list.
 *
 * Who may write is decided by the domain alone (accessOf() on membershipCte's facts); no write
 * statement restates it. test/access-agreement.test.ts checks on random trees that the list (this
 * SQL) shows exactly the projects GET /projects/{uid} (accessOf) lets the same caller view.
 */

// A guard against walking forever should a cycle ever reach the table.
export const MAX_DEPTH = 1000;

export interface MembershipRow {
  /** count(*): a BigInt through Prisma, a string straight from pg. */
  found: bigint | string;
  is_public: boolean | null;
  writer_of_chain: boolean | null;
  writer_of_ancestors: boolean | null;
  auditor_of_chain: boolean | null;
}

/**
 * `WITH RECURSIVE chain AS (…), membership AS (…)`: the whole ancestor chain of `uid` and the
 * caller's roles along it, as the one row `membership` (its columns are MembershipRow's). A
 * statement that needs the project as well selects from `membership` beside it.
 */
export function membershipCte(uid: string, principal: string): Prisma.Sql {
  return Prisma.sql`
    WITH RECURSIVE chain AS (
      SELECT uid, parent_uid, public, 0 AS depth FROM projects WHERE uid = ${uid}::uuid
      UNION ALL
      SELECT p.uid, p.parent_uid, p.public, c.depth + 1
      FROM projects p JOIN chain c ON p.uid = c.parent_uid
      WHERE c.depth < ${MAX_DEPTH}
    ), membership AS (
      SELECT
        count(*) AS found,
        bool_or(c.depth = 0 AND c.public) AS is_public,
        coalesce(bool_or(m.role = 'writer'), false) AS writer_of_chain,
        coalesce(bool_or(m.role = 'writer' AND c.depth > 0), false) AS writer_of_ancestors,
        coalesce(bool_or(m.role = 'auditor'), false) AS auditor_of_chain
      FROM chain c
      LEFT JOIN project_members m
        ON m.project_uid = c.uid AND m.username = ${principal} AND m.role IN ('writer', 'auditor')
    )`;
}

/** The facts accessOf() decides on, from a row with membershipCte's columns; undefined when the project does not exist. */
export function membershipOf(row: MembershipRow | undefined): ChainMembership | undefined {
  if (!row || Number(row.found) === 0) return undefined;
  return {
    isPublic: row.is_public === true,
    writerOfChain: row.writer_of_chain === true,
    writerOfAncestors: row.writer_of_ancestors === true,
    auditorOfChain: row.auditor_of_chain === true,
  };
}

/** The facts of membershipOf() alone: every write's access check. */
const MEMBERSHIP = fixedStatement<{ uid: string; principal: string }>(
  'project_membership',
  (arg) => Prisma.sql`
    ${membershipCte(arg('uid'), arg('principal'))}
    SELECT * FROM membership`,
);

/** The whole ancestor chain of `uid` and the caller's roles along it, in one statement. */
export async function membershipAlongChain(
  run: RunStatement,
  uid: string,
  principal: string,
): Promise<ChainMembership | undefined> {
  const rows = await run<MembershipRow>(MEMBERSHIP.bind({ uid, principal }));
  return membershipOf(rows[0]);
}

/**
 * accessOf().view as SQL over `projects p`, as a condition on each row: an admin views everything;
 * anyone else a public project, or one on whose ancestor chain (itself included) the caller is a
 * writer or auditor (roles flow down). The chain is walked up from each row the list's scan
 * reaches, a few index lookups per level, so a page costs the same at any size of tree: the
 * earlier form gathered every project below the caller's roles first, which at 200,000 projects
 * was 40,000 rows for each page of a writer of one top-level project (270 ms).
 */
export function visibleToCaller(caller: Caller): Prisma.Sql {
  if (caller.isAdmin) return Prisma.sql`TRUE`;
  return Prisma.sql`(p.public OR EXISTS (
      WITH RECURSIVE up(uid, parent_uid, depth) AS (
        SELECT p.uid, p.parent_uid, 0
        UNION ALL
        SELECT a.uid, a.parent_uid, up.depth + 1
        FROM projects a JOIN up ON a.uid = up.parent_uid
        WHERE up.depth < ${MAX_DEPTH}
      )
      SELECT 1 FROM up JOIN project_members m ON m.project_uid = up.uid
      WHERE m.username = ${caller.principal} AND m.role IN ('writer', 'auditor')
    ))`;
}
