/**
 * The baseline of an attachment's rename (PATCH /repos/{owner}/{repo}/issues/{index}/assets/{id}),
 * the attachment write the bench loads. One statement reads the caller, the repository with its
 * owner, the caller's teams there and collaboration, the issue and the attachment, and renames the
 * attachment when the caller may: the caller's level on the repository (repositoryLevelFrom's rule)
 * is written in SQL for that guard. The answer is then decided from the facts the statement
 * returns, by the service's own rules in Gitea's order (baseline-identity.test.ts holds the two to
 * the same bytes).
 */
import type { BaselineResponse, Query } from '@repo/testing/bench';
import { isHttpError } from '@repo/http-errors';
import mime from 'mime-types';
import { defaultSettings } from '../../src/config';
import { atLeast, membershipFrom, repositoryLevelFrom } from '../../src/domain/access';
import { assertDisplayNameAllowed } from '../../src/domain/attachment-types';
import { isSiteAdmin, type Caller } from '../../src/domain/caller';
import type { AccessLevel, AttachmentRecord, RepositoryRecord } from '../../src/domain/records';
import { requestedNumber } from '../../src/domain/requested-number';
import type { createWire } from '../../src/wire/wire';
import { accountOf, CALLER_CTE, hashOf, teamOf, type CallerRow, type Json } from './rows';

/** What the rename needs of createBaseline's own helpers. */
export interface AttachmentBaselineTools {
  query: Query;
  wire: ReturnType<typeof createWire>;
  json: (status: number, value: unknown) => BaselineResponse;
  error: (status: number, message: string) => BaselineResponse;
  callerOf: (
    row: CallerRow | undefined,
    token: string | null,
    access: 'read' | 'write',
    category: 'issue',
  ) => Caller | BaselineResponse;
}

/** The path's parts as sent (messages quote them). */
export interface AttachmentPath {
  owner: string;
  repo: string;
  index: string;
  id: string;
}

const LEVELS = `ARRAY['read', 'write', 'admin', 'owner']`;

/**
 * $1 the token's hash, $2/$3 owner and repository, $4 the issue's index, $5 the attachment's id,
 * $6 the new name, $7 whether the name may be written (given, and of an allowed type).
 */
const RENAME = `WITH ${CALLER_CTE}, cu AS (
    SELECT (c.account->>'id')::bigint AS id,
      ',' || c.scopes || ',' LIKE '%,public-only,%' AS public_only,
      (c.account->>'is_admin')::boolean AND NOT (',' || c.scopes || ',' LIKE '%,public-only,%') AS site_admin,
      (',' || c.scopes || ',' LIKE '%,all,%' OR ',' || c.scopes || ',' LIKE '%,write:issue,%') AS writes_issues
    FROM caller c
  ), r AS (
    SELECT r.*, row_to_json(o) AS owner FROM repositories r JOIN accounts o ON o.id = r.owner_id
    WHERE o.lower_name = lower($2) AND r.lower_name = lower($3)
  ), ct AS (
    SELECT t.* FROM teams t JOIN team_members m ON m.team_id = t.id
    WHERE t.org_id = (SELECT owner_id FROM r) AND m.account_id = (SELECT id FROM cu)
  ), cb AS (
    SELECT permission FROM collaborations
    WHERE repo_id = (SELECT id FROM r) AND account_id = (SELECT id FROM cu)
  ), lvl AS (
    SELECT CASE
      WHEN cu.public_only AND (r.is_private OR r.owner->>'visibility' <> 'public') THEN 'none'
      WHEN cu.site_admin OR cu.id = r.owner_id THEN 'owner'
      WHEN EXISTS (SELECT FROM ct WHERE permission = 'owner') THEN 'owner'
      WHEN g.rank IS NOT NULL THEN (${LEVELS})[g.rank]
      WHEN NOT r.is_private AND (r.owner->>'visibility' = 'public'
        OR (NOT cu.public_only AND (r.owner->>'visibility' = 'limited' OR EXISTS (SELECT FROM ct)))) THEN 'read'
      ELSE 'none' END AS level
    FROM r LEFT JOIN cu ON TRUE,
      LATERAL (SELECT max(array_position(${LEVELS}, p)) AS rank FROM (
        SELECT permission AS p FROM ct WHERE includes_all_repositories
        UNION ALL SELECT permission FROM cb) granted) g
  ), i AS (
    SELECT id, poster_id FROM issues WHERE repo_id = (SELECT id FROM r) AND index = $4
  ), a AS (
    SELECT a.* FROM attachments a JOIN i ON a.issue_id = i.id WHERE a.id = $5 AND a.repo_id = (SELECT id FROM r)
  ), renamed AS (
    UPDATE attachments t SET name = $6 FROM a, i, r, lvl, cu
    WHERE t.id = a.id AND $7 AND cu.writes_issues AND NOT r.is_archived AND lvl.level <> 'none'
      AND (i.poster_id = cu.id OR cu.site_admin OR lvl.level IN ('write', 'admin', 'owner'))
    RETURNING t.*
  )
  SELECT (SELECT row_to_json(c) FROM caller c) AS caller, (SELECT row_to_json(r) FROM r) AS repo,
    (SELECT json_agg(row_to_json(ct)) FROM ct) AS caller_teams, (SELECT permission FROM cb) AS collaboration,
    (SELECT row_to_json(i) FROM i) AS issue, (SELECT row_to_json(a) FROM a) AS attachment,
    (SELECT row_to_json(n) FROM renamed n) AS renamed`;

type RenameRow = CallerRow & {
  repo: Json | null;
  caller_teams: Json[] | null;
  collaboration: string | null;
  issue: { id: number; poster_id: number } | null;
  attachment: Json | null;
  renamed: Json | null;
};

function repositoryOf(row: Json): RepositoryRecord {
  return {
    id: Number(row['id']),
    owner: accountOf(row['owner'] as Json),
    name: row['name'] as string,
    lowerName: row['lower_name'] as string,
    description: row['description'] as string,
    website: row['website'] as string,
    isPrivate: row['is_private'] as boolean,
    isArchived: row['is_archived'] as boolean,
    archivedAt: row['archived_at'] ? new Date(row['archived_at'] as string) : undefined,
    // Not part of an attachment's answer.
    openIssueCount: 0,
    openPullCount: 0,
    createdAt: new Date(row['created_at'] as string),
    updatedAt: new Date(row['updated_at'] as string),
  };
}

function attachmentOf(row: Json): AttachmentRecord {
  return {
    id: Number(row['id']),
    uuid: row['uuid'] as string,
    repoId: Number(row['repo_id']),
    issueId: row['issue_id'] === null ? undefined : Number(row['issue_id']),
    uploaderId: row['uploader_id'] === null ? undefined : Number(row['uploader_id']),
    name: row['name'] as string,
    contentType: row['content_type'] as string,
    size: Number(row['size']),
    downloadCount: Number(row['download_count']),
    createdAt: new Date(row['created_at'] as string),
  };
}

/** The display name's refusal (422), as the service words it; undefined when it may be written. */
function nameRefusal(name: string): { status: number; message: string } | undefined {
  try {
    assertDisplayNameAllowed(
      defaultSettings.attachmentAllowedTypes,
      name,
      (extension) => mime.lookup(extension) || undefined,
    );
    return undefined;
  } catch (failure) {
    if (isHttpError(failure)) return { status: failure.status, message: failure.message };
    throw failure;
  }
}

export async function renameAttachment(
  { query, wire, json, error, callerOf }: AttachmentBaselineTools,
  token: string | null,
  path: AttachmentPath,
  body: Json,
): Promise<BaselineResponse> {
  const name = typeof body['name'] === 'string' ? body['name'] : undefined;
  const refusal = name ? nameRefusal(name) : undefined;
  const [row] = await query<RenameRow>(RENAME, [
    token && hashOf(token),
    path.owner,
    path.repo,
    // A number no row can have (past 2^53, or not plain decimal) matches nothing, as in the service.
    requestedNumber(path.index).value ?? null,
    requestedNumber(path.id).value ?? null,
    name ?? '',
    Boolean(name) && !refusal,
  ]);
  const caller = callerOf(row, token, 'write', 'issue');
  if ('status' in caller) return caller;
  const repository = row?.repo ? repositoryOf(row.repo) : undefined;
  const teams = caller.user && !isSiteAdmin(caller) ? (row?.caller_teams ?? []).map(teamOf) : [];
  const level = repository
    ? repositoryLevelFrom(
        caller,
        repository,
        membershipFrom(teams),
        (row!.collaboration ?? 'none') as AccessLevel,
      )
    : 'none';
  if (!repository || level === 'none')
    return error(404, `repository ${path.owner}/${path.repo} does not exist`);
  if (!caller.user) return error(401, 'token is required');
  const shown = `${repository.owner.name}/${repository.name}`;
  if (repository.isArchived) return error(423, `repository ${shown} is archived`);
  const issue = row!.issue;
  if (!issue) return error(404, `issue ${path.index} does not exist in ${shown}`);
  if (!(Number(issue.poster_id) === caller.user.id || isSiteAdmin(caller) || atLeast(level, 'write')))
    return error(403, 'write permission on the issue is required');
  if (!row!.attachment)
    return error(404, `attachment ${path.id} does not exist on issue ${Number(path.index)}`);
  if (!name) return json(201, wire.toAttachment(attachmentOf(row!.attachment)));
  if (refusal) return error(refusal.status, refusal.message);
  if (!row!.renamed)
    throw new Error(`the rename's guard refused a rename its rules allow (${path.owner}/${path.repo})`);
  return json(201, wire.toAttachment(attachmentOf(row!.renamed)));
}
