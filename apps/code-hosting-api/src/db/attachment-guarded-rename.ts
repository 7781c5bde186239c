import type { AttachmentPath, AttachmentWriter, GuardedRename } from '../domain/attachment-store';
import { accessLevels, type AccessLevel } from '../domain/records';
import { Prisma } from '../generated/prisma/client';
import { ACCOUNT_COLUMNS } from './account-store';
import { attachmentColumns } from './attachment-columns';
import type { RunStatement } from './database';
import { memberTeamsCte, MEMBER_TEAMS_JSON, type MemberTeamJson } from './member-teams';
import { fixedStatement } from './prepared-statements';
import { unlessUnstorable } from './write-outcome';
import { toAccount, toAttachmentOfJson, toTeam, type AccountRow, type AttachmentJson } from './row-mappers';

// PATCH …/assets/{id} in one statement: the repository, the writer's teams there, perhaps a
// collaboration, the issue and the write. The write is guarded by
// the SQL form of the rules the full path applies (repositoryLevelFrom, assertNotArchived,
// assertMayWriteIssue); the statement returns the facts it decided on, and the domain decides
// again on them before it answers.

type RenameTargetArgs = {
  ownerLowerName: string;
  lowerName: string;
  index: number;
  id: number;
  name: string;
};

type RenameArgs = RenameTargetArgs & {
  userId: number;
  siteAdmin: boolean;
  publicOnly: boolean;
};

/** The levels a team or a collaboration grants, lowest first (array_position gives their rank). */
const GRANTED_LEVELS = Prisma.raw(
  `ARRAY[${accessLevels
    .filter((level) => level !== 'none')
    .map((level) => `'${level}'`)
    .join(', ')}]`,
);

/**
 * The guarded rename for the writer that `writer` names: a WITH item of one row (user_id,
 * site_admin, public_only), or none and nothing is written.
 */
function guardedRename(args: RenameTargetArgs, writer: Prisma.Sql): Prisma.Sql {
  const userId = Prisma.sql`(SELECT user_id FROM writer)`;
  return Prisma.sql`
    WITH ${writer}, r AS (
      SELECT ${ACCOUNT_COLUMNS}, r.id AS "repoId", r.is_private AS "repoIsPrivate", r.is_archived AS "repoIsArchived"
      FROM accounts a JOIN repositories r ON r.owner_id = a.id
      WHERE a.lower_name = ${args.ownerLowerName} AND r.lower_name = ${args.lowerName}
    ), ${memberTeamsCte(Prisma.sql`(SELECT "id" FROM r WHERE r."type" = 'organization')`, userId)},
    collaboration AS (
      SELECT permission FROM collaborations
      WHERE repo_id = (SELECT "repoId" FROM r) AND account_id = ${userId}
    ), level AS (
      -- repositoryLevelFrom (src/domain/access.ts) for a signed-in writer.
      SELECT CASE
        WHEN w.public_only AND (r."repoIsPrivate" OR r."visibility" <> 'public') THEN 'none'
        WHEN w.site_admin OR r."id" = w.user_id THEN 'owner'
        WHEN EXISTS (SELECT FROM member_teams WHERE permission = 'owner') THEN 'owner'
        WHEN g.rank IS NOT NULL THEN (${GRANTED_LEVELS})[g.rank]
        WHEN NOT r."repoIsPrivate" AND (r."visibility" = 'public' OR (NOT w.public_only
          AND (r."visibility" = 'limited' OR EXISTS (SELECT FROM member_teams)))) THEN 'read'
        ELSE 'none' END AS level
      FROM r, writer w, LATERAL (
        SELECT max(array_position(${GRANTED_LEVELS}, granted.permission)) AS rank FROM (
          SELECT permission FROM member_teams WHERE "includesAllRepositories"
          UNION ALL SELECT permission FROM collaboration) granted) g
    ), issue AS (
      SELECT id, poster_id FROM issues WHERE repo_id = (SELECT "repoId" FROM r) AND index = ${args.index}::bigint
    ), renamed AS (
      UPDATE attachments t SET name = ${args.name}
      FROM issue i, r, level l, writer w
      WHERE t.id = ${args.id}::bigint AND t.issue_id = i.id AND t.repo_id = r."repoId"
        AND NOT r."repoIsArchived" AND l.level <> 'none'
        AND (i.poster_id = w.user_id OR w.site_admin OR l.level IN ('write', 'admin', 'owner'))
      RETURNING ${attachmentColumns('t')}
    )
    SELECT r.*, i.poster_id AS "posterId", row_to_json(n) AS "attachment",
      (SELECT permission FROM collaboration) AS "collaboration",
      ${MEMBER_TEAMS_JSON} AS "memberTeams"
    FROM renamed n, r, issue i`;
}

/** The guarded rename for a writer already known. */
const RENAME_GUARDED = fixedStatement<RenameArgs>('attachment_rename_guarded', (arg, args) =>
  guardedRename(
    args,
    Prisma.sql`writer AS (
      SELECT ${arg('userId')}::bigint AS user_id, ${arg('siteAdmin')}::boolean AS site_admin,
        ${arg('publicOnly')}::boolean AS public_only
    )`,
  ),
);

type RenameRow = AccountRow & {
  repoIsPrivate: boolean;
  repoIsArchived: boolean;
  posterId: number | string;
  attachment: AttachmentJson;
  collaboration: string | null;
  memberTeams: MemberTeamJson[];
};

/** The rename the statement made, with the facts its guard decided on; undefined when it made none. */
function guardedRenameOf(rows: readonly RenameRow[]): GuardedRename | undefined {
  const [row] = rows;
  if (!row) return undefined;
  return {
    attachment: toAttachmentOfJson(row.attachment),
    repository: { owner: toAccount(row), isPrivate: row.repoIsPrivate, isArchived: row.repoIsArchived },
    memberTeams: row.memberTeams.map(toTeam),
    collaboration: (row.collaboration ?? 'none') as AccessLevel,
    posterId: Number(row.posterId),
  };
}

const targetOf = (path: AttachmentPath, name: string): RenameTargetArgs => ({
  ownerLowerName: path.owner.toLowerCase(),
  lowerName: path.repo.toLowerCase(),
  index: path.index,
  id: path.id,
  name,
});

/** The rename when the guard allowed it; undefined when nothing was written. */
export async function renameAttachmentGuarded(
  run: RunStatement,
  path: AttachmentPath,
  name: string,
  writer: AttachmentWriter,
): Promise<GuardedRename | undefined> {
  // A value the database refuses (a NUL character): the full path decides who may act first.
  const rows = await unlessUnstorable(() =>
    run<RenameRow>(RENAME_GUARDED.bind({ ...targetOf(path, name), ...writer })),
  );
  return rows && guardedRenameOf(rows);
}
