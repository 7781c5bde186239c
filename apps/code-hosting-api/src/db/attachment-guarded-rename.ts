import type { AttachmentPath, AttachmentWriter, GuardedRename } from '../domain/attachment-store';
import type { AccessLevel } from '../domain/records';
import { Prisma } from '../generated/prisma/client';
import { ACCOUNT_COLUMNS } from './account-store';
import type { RunStatement } from './database';
import { fixedStatement } from './prepared-statements';
import {
  toAccount,
  toAttachmentOfJson,
  toTeam,
  type AccountRow,
  type AttachmentJson,
  type TeamRow,
} from './row-mappers';

// PATCH …/assets/{id} in one statement (before: the repository, the writer's teams there, perhaps
// a collaboration, the issue with its attachments, then the write: five). The write is guarded by
// the SQL form of the rules the full path applies (repositoryLevelFrom, assertNotArchived,
// assertMayWriteIssue); the statement returns the facts it decided on, and the domain decides
// again on them before it answers.

type RenameArgs = {
  ownerLowerName: string;
  lowerName: string;
  index: number;
  id: number;
  name: string;
  userId: number;
  siteAdmin: boolean;
  publicOnly: boolean;
};

/** The levels a team or a collaboration grants, lowest first (array_position gives their rank). */
const GRANTED_LEVELS = Prisma.sql`ARRAY['read', 'write', 'admin', 'owner']`;

const RENAME_GUARDED = fixedStatement<RenameArgs>(
  'attachment_rename_guarded',
  (arg) => Prisma.sql`
    WITH r AS (
      SELECT ${ACCOUNT_COLUMNS}, r.id AS "repoId", r.is_private AS "repoIsPrivate", r.is_archived AS "repoIsArchived"
      FROM accounts a JOIN repositories r ON r.owner_id = a.id
      WHERE a.lower_name = ${arg('ownerLowerName')} AND r.lower_name = ${arg('lowerName')}
    ), member_teams AS (
      SELECT t.id, t.org_id AS "orgId", t.name, t.description, t.permission,
        t.can_create_org_repo AS "canCreateOrgRepo", t.includes_all_repositories AS "includesAllRepositories"
      FROM teams t JOIN r ON t.org_id = r."id"
      WHERE EXISTS (SELECT FROM team_members m WHERE m.team_id = t.id AND m.account_id = ${arg('userId')}::bigint)
    ), collaboration AS (
      SELECT permission FROM collaborations
      WHERE repo_id = (SELECT "repoId" FROM r) AND account_id = ${arg('userId')}::bigint
    ), level AS (
      -- repositoryLevelFrom (src/domain/access.ts) for a signed-in writer.
      SELECT CASE
        WHEN ${arg('publicOnly')}::boolean AND (r."repoIsPrivate" OR r."visibility" <> 'public') THEN 'none'
        WHEN ${arg('siteAdmin')}::boolean OR r."id" = ${arg('userId')}::bigint THEN 'owner'
        WHEN EXISTS (SELECT FROM member_teams WHERE permission = 'owner') THEN 'owner'
        WHEN g.rank IS NOT NULL THEN (${GRANTED_LEVELS})[g.rank]
        WHEN NOT r."repoIsPrivate" AND (r."visibility" = 'public' OR (NOT ${arg('publicOnly')}::boolean
          AND (r."visibility" = 'limited' OR EXISTS (SELECT FROM member_teams)))) THEN 'read'
        ELSE 'none' END AS level
      FROM r, LATERAL (
        SELECT max(array_position(${GRANTED_LEVELS}, granted.permission)) AS rank FROM (
          SELECT permission FROM member_teams WHERE "includesAllRepositories"
          UNION ALL SELECT permission FROM collaboration) granted) g
    ), issue AS (
      SELECT id, poster_id FROM issues WHERE repo_id = (SELECT "repoId" FROM r) AND index = ${arg('index')}::bigint
    ), renamed AS (
      UPDATE attachments t SET name = ${arg('name')}
      FROM issue i, r, level l
      WHERE t.id = ${arg('id')}::bigint AND t.issue_id = i.id AND t.repo_id = r."repoId"
        AND NOT r."repoIsArchived" AND l.level <> 'none'
        AND (i.poster_id = ${arg('userId')}::bigint OR ${arg('siteAdmin')}::boolean
          OR l.level IN ('write', 'admin', 'owner'))
      RETURNING t.id AS "id", t.uuid AS "uuid", t.repo_id AS "repoId", t.issue_id AS "issueId",
        t.uploader_id AS "uploaderId", t.name AS "name", t.content_type AS "contentType", t.size AS "size",
        t.download_count AS "downloadCount", t.created_at AS "createdAt"
    )
    SELECT r.*, i.poster_id AS "posterId", row_to_json(n) AS "attachment",
      (SELECT permission FROM collaboration) AS "collaboration",
      (SELECT coalesce(json_agg(mt ORDER BY mt.id), '[]') FROM member_teams mt) AS "memberTeams"
    FROM renamed n, r, issue i`,
);

type RenameRow = AccountRow & {
  repoIsPrivate: boolean;
  repoIsArchived: boolean;
  posterId: number | string;
  attachment: AttachmentJson;
  collaboration: string | null;
  memberTeams: TeamRow[];
};

/** The rename when the guard allowed it; undefined when nothing was written. */
export async function renameAttachmentGuarded(
  run: RunStatement,
  path: AttachmentPath,
  name: string,
  writer: AttachmentWriter,
): Promise<GuardedRename | undefined> {
  const [row] = await run<RenameRow>(
    RENAME_GUARDED.bind({
      ownerLowerName: path.owner.toLowerCase(),
      lowerName: path.repo.toLowerCase(),
      index: path.index,
      id: path.id,
      name,
      ...writer,
    }),
  );
  if (!row) return undefined;
  return {
    attachment: toAttachmentOfJson(row.attachment),
    repository: { owner: toAccount(row), isPrivate: row.repoIsPrivate, isArchived: row.repoIsArchived },
    memberTeams: row.memberTeams.map(toTeam),
    collaboration: (row.collaboration ?? 'none') as AccessLevel,
    posterId: Number(row.posterId),
  };
}
