/**
 * The baseline: what code-hosting-api does per request with nothing in the way. The same token
 * check (SHA-256 of the token looked up with its account, its scopes checked), one SQL
 * statement per request (the caller, the access facts and the data together), and the same JSON
 * bytes, written with the service's own pure converters (src/wire/wire.ts) and access rules
 * (src/domain/access.ts): the conversion is part of the work; Express, Prisma, zod and the extra
 * round trips are what is "in the way".
 *
 * Built for the bench's requests: GET /orgs/{org}, /orgs, /users/{u}/orgs, the permissions and the
 * activity feed; POST /orgs, PATCH /orgs/{org} and an attachment's rename (./attachments.ts); the
 * other attachment operations have none.
 * `query` runs one statement (pg in the bench server, the test database in the identity test).
 */
import type { BaselineRequest, BaselineResponse, Query } from '@repo/testing/bench';
import { defaultSettings } from '../../src/config';
import { membershipFrom, repositoryLevelFrom, seesAccount } from '../../src/domain/access';
import type { Caller } from '../../src/domain/caller';
import { levelRank, type AccessLevel, type RepositoryRecord } from '../../src/domain/records';
import { scopesAllow, type ScopeCategory } from '../../src/domain/token-scopes';
import { createWire } from '../../src/wire/wire';
import { renameAttachment } from './attachments';
import {
  accountOf,
  CALLER_CTE,
  CALLER_MEMBER_OF,
  hashOf,
  teamOf,
  VISIBLE_ORG,
  type CallerRow,
  type Json,
} from './rows';

export interface BaselineOptions {
  query: Query;
  rootUrl: string;
  defaultPageSize?: number;
  maxPageSize?: number;
}

export function createBaseline(options: BaselineOptions) {
  const { query, rootUrl } = options;
  const wire = createWire(rootUrl);
  const defaultPageSize = options.defaultPageSize ?? defaultSettings.defaultPageSize;
  const maxPageSize = options.maxPageSize ?? defaultSettings.maxPageSize;
  const json = (status: number, value: unknown, headers: Record<string, string> = {}): BaselineResponse => ({
    status,
    headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(value),
  });
  const error = (status: number, message: string) => json(status, { message, url: `${rootUrl}api/swagger` });

  function tokenOf(request: BaselineRequest, search: URLSearchParams): string | null | undefined {
    const header = request.headers['authorization'];
    const value = Array.isArray(header) ? header[0] : header;
    if (value) {
      const [scheme = '', credentials = ''] = value.trim().split(/\s+/, 2);
      return /^(token|bearer)$/i.test(scheme) ? credentials : undefined;
    }
    return search.get('token') ?? search.get('access_token');
  }

  /** The caller of a row, or a response refusing the request. */
  function callerOf(
    row: CallerRow | undefined,
    token: string | null,
    access: 'read' | 'write' = 'read',
    category: ScopeCategory = 'organization',
  ): Caller | BaselineResponse {
    if (token && !row?.caller) return error(401, 'invalid username, password or token');
    if (!row?.caller) return { user: undefined, publicOnly: false };
    const scopes = row.caller.scopes.split(',').filter(Boolean);
    if (!scopesAllow(scopes, category, access)) {
      return error(
        403,
        `token does not have at least one of required scope(s), required=[${access}:${category}], token scope=${scopes.join(',')}`,
      );
    }
    return { user: accountOf(row.caller.account), publicOnly: scopes.includes('public-only') };
  }

  function paging(search: URLSearchParams) {
    const page = Math.max(1, Number.parseInt(search.get('page') ?? '', 10) || 1);
    const asked = Number.parseInt(search.get('limit') ?? '', 10) || 0;
    const limit = asked <= 0 ? defaultPageSize : Math.min(asked, maxPageSize);
    return { limit, offset: (page - 1) * limit };
  }

  async function getOrg(token: string | null, name: string): Promise<BaselineResponse> {
    const [row] = await query<CallerRow & { org: Json | null; caller_member: boolean }>(
      `WITH ${CALLER_CTE}
       SELECT (SELECT row_to_json(c) FROM caller c) AS caller, row_to_json(o) AS org, ${CALLER_MEMBER_OF('o')} AS caller_member
       FROM (SELECT 1) one LEFT JOIN accounts o ON o.lower_name = lower($2)`,
      [token && hashOf(token), name],
    );
    const caller = callerOf(row, token);
    if ('status' in caller) return caller;
    const org = row?.org ? accountOf(row.org) : undefined;
    if (!org || org.type !== 'organization' || !seesAccount(caller, org, row!.caller_member)) {
      return error(404, `organization ${name} does not exist`);
    }
    return json(200, wire.toOrganization(org, caller));
  }

  /**
   * POST /orgs: the caller's right to create (site administrator, or allowed by the account and the
   * deployment), the organization, its Owners team and the caller in it, in one statement.
   */
  async function createOrg(token: string | null, body: Json): Promise<BaselineResponse> {
    const name = String(body['username']);
    let row: (CallerRow & { org: Json | null }) | undefined;
    try {
      [row] = await query<CallerRow & { org: Json | null }>(
        `WITH ${CALLER_CTE}, creator AS (
           SELECT (c.account->>'id')::bigint AS id FROM caller c
           WHERE NOT (',' || c.scopes || ',' LIKE '%,public-only,%')
             AND ((c.account->>'is_admin')::boolean OR ((c.account->>'allow_create_organization')::boolean AND NOT $10))
         ), org AS (
           INSERT INTO accounts (name, lower_name, full_name, email, type, visibility, description, website,
             location, repo_admin_change_team_access, created_at, updated_at)
           SELECT $2, lower($2), $3, $4, 'organization', $5, $6, $7, $8, $9, now(), now() FROM creator
           RETURNING *
         ), team AS (
           INSERT INTO teams (org_id, name, lower_name, description, permission, can_create_org_repo,
             includes_all_repositories, created_at)
           SELECT id, 'Owners', 'owners', '', 'owner', true, true, now() FROM org
           RETURNING id
         ), member AS (
           INSERT INTO team_members (team_id, account_id) SELECT team.id, creator.id FROM team, creator
         )
         SELECT (SELECT row_to_json(c) FROM caller c) AS caller, (SELECT row_to_json(o) FROM org o) AS org`,
        [
          token && hashOf(token),
          name,
          body['full_name'] ?? '',
          body['email'] ?? '',
          body['visibility'] ?? 'public',
          body['description'] ?? '',
          body['website'] ?? '',
          body['location'] ?? '',
          body['repo_admin_change_team_access'] ?? false,
          defaultSettings.disableRegularOrgCreation,
        ],
      );
    } catch (failure) {
      if ((failure as { code?: string }).code === '23505')
        return error(422, `user already exists [name: ${name}]`);
      throw failure;
    }
    const caller = callerOf(row, token, 'write');
    if ('status' in caller) return caller;
    if (!caller.user) return error(401, 'token is required');
    if (!row?.org) return error(403, 'user is not allowed to create organizations');
    return json(201, wire.toOrganization(accountOf(row.org), caller));
  }

  /**
   * PATCH /orgs/{org}: the organization, whether the caller may see it and owns it, and the
   * supplied fields written when so, in one statement (a visibility change under the danger-zone
   * setting is the site administrators' only).
   */
  async function editOrg(token: string | null, name: string, body: Json): Promise<BaselineResponse> {
    const given = (field: string) => (body[field] === undefined ? null : body[field]);
    const [row] = await query<
      CallerRow & { org: Json | null; caller_member: boolean; caller_owner: boolean; updated: Json | null }
    >(
      `WITH ${CALLER_CTE}, o AS (
         SELECT * FROM accounts WHERE lower_name = lower($2) AND type = 'organization'
       ), rights AS (
         SELECT ${CALLER_MEMBER_OF('o')} AS caller_member,
           EXISTS (SELECT 1 FROM teams t JOIN team_members m ON m.team_id = t.id
             WHERE t.org_id = o.id AND t.permission = 'owner'
               AND m.account_id = (SELECT (account->>'id')::bigint FROM caller)) AS caller_owner,
           EXISTS (SELECT 1 FROM caller c WHERE (c.account->>'is_admin')::boolean
             AND NOT (',' || c.scopes || ',' LIKE '%,public-only,%')) AS site_admin,
           EXISTS (SELECT 1 FROM caller c WHERE ',' || c.scopes || ',' LIKE '%,public-only,%') AS public_only
         FROM o
       ), updated AS (
         UPDATE accounts a SET full_name = coalesce($3, a.full_name), email = coalesce($4, a.email),
           description = coalesce($5, a.description), website = coalesce($6, a.website),
           location = coalesce($7, a.location), visibility = coalesce($8, a.visibility),
           repo_admin_change_team_access = coalesce($9, a.repo_admin_change_team_access), updated_at = now()
         FROM o, rights r
         WHERE a.id = o.id AND (r.site_admin OR (r.caller_owner AND NOT r.public_only))
           AND (r.site_admin OR NOT $10 OR $8::text IS NULL OR $8 = o.visibility)
           AND ($3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::boolean) IS DISTINCT FROM
               (NULL, NULL, NULL, NULL, NULL, NULL, NULL)
         RETURNING a.*
       )
       SELECT (SELECT row_to_json(c) FROM caller c) AS caller, (SELECT row_to_json(o) FROM o) AS org,
         coalesce((SELECT caller_member FROM rights), false) AS caller_member,
         coalesce((SELECT caller_owner FROM rights), false) AS caller_owner,
         (SELECT row_to_json(u) FROM updated u) AS updated`,
      [
        token && hashOf(token),
        name,
        given('full_name'),
        given('email'),
        given('description'),
        given('website'),
        given('location'),
        given('visibility'),
        given('repo_admin_change_team_access'),
        defaultSettings.orgDangerZoneRestricted,
      ],
    );
    const caller = callerOf(row, token, 'write');
    if ('status' in caller) return caller;
    if (!caller.user) return error(401, 'token is required');
    const org = row?.org ? accountOf(row.org) : undefined;
    if (!org || !seesAccount(caller, org, row!.caller_member)) {
      return error(404, `organization ${name} does not exist`);
    }
    const siteAdmin = caller.user.isAdmin && !caller.publicOnly;
    if (!siteAdmin && (caller.publicOnly || !row!.caller_owner))
      return error(403, 'must be an organization owner');
    if (row!.updated) return json(200, wire.toOrganization(accountOf(row!.updated), caller));
    if (body['visibility'] !== undefined && body['visibility'] !== org.visibility && !siteAdmin)
      return error(403, 'Organization danger zone actions are restricted to site administrators');
    return json(200, wire.toOrganization(org, caller));
  }

  /** GET /orgs and GET /users/{username}/orgs: one page and the total. */
  async function listOrgs(token: string | null, search: URLSearchParams, username?: string) {
    const { limit, offset } = paging(search);
    const rows = await query<CallerRow & { member: Json | null; org: Json | null; total: string | null }>(
      `WITH ${CALLER_CTE}, member AS (SELECT * FROM accounts WHERE lower_name = lower($4))
       SELECT (SELECT row_to_json(c) FROM caller c) AS caller, (SELECT row_to_json(m) FROM member m) AS member, page.*
       FROM (SELECT 1) one LEFT JOIN LATERAL (
         SELECT row_to_json(shown) AS org, keys.total FROM (
           -- The page's keys and the total first: the rows become JSON only for the page.
           SELECT o.id, o.lower_name, count(*) OVER () AS total FROM accounts o
           WHERE o.type = 'organization' AND ${VISIBLE_ORG}
             AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM teams t JOIN team_members m ON m.team_id = t.id
                   WHERE t.org_id = o.id AND m.account_id = (SELECT id FROM member)))
           ORDER BY o.lower_name LIMIT $2 OFFSET $3) keys
         JOIN accounts shown ON shown.id = keys.id
         ORDER BY keys.lower_name) page ON true`,
      [token && hashOf(token), limit, offset, username ?? null],
    );
    const caller = callerOf(rows[0], token);
    if ('status' in caller) return caller;
    if (username !== undefined) {
      const user = rows[0]?.member ? accountOf(rows[0].member) : undefined;
      if (!user || user.type !== 'user' || !seesAccount(caller, user, false)) {
        return error(404, `user ${username} does not exist`);
      }
    }
    const orgs = rows.filter((row) => row.org).map((row) => wire.toOrganization(accountOf(row.org!), caller));
    return json(200, orgs, { 'x-total-count': String(rows[0]?.total ?? 0) });
  }

  async function permissions(token: string | null, username: string, orgName: string) {
    const [row] = await query<
      CallerRow & { user: Json | null; org: Json | null; user_teams: Json[] | null; caller_member: boolean }
    >(
      `WITH ${CALLER_CTE}
       SELECT (SELECT row_to_json(c) FROM caller c) AS caller, row_to_json(u) AS user, row_to_json(o) AS org,
         (SELECT json_agg(row_to_json(t)) FROM teams t JOIN team_members m ON m.team_id = t.id
           WHERE t.org_id = o.id AND m.account_id = u.id) AS user_teams,
         ${CALLER_MEMBER_OF('o')} AS caller_member
       FROM (SELECT 1) one LEFT JOIN accounts u ON u.lower_name = lower($2) LEFT JOIN accounts o ON o.lower_name = lower($3)`,
      [token && hashOf(token), username, orgName],
    );
    const caller = callerOf(row, token);
    if ('status' in caller) return caller;
    if (!caller.user) return error(401, 'token is required');
    const user = row?.user ? accountOf(row.user) : undefined;
    if (!user || user.type !== 'user' || !seesAccount(caller, user, false)) {
      return error(404, `user ${username} does not exist`);
    }
    const org = row?.org ? accountOf(row.org) : undefined;
    if (!org || org.type !== 'organization' || !seesAccount(caller, org, row!.caller_member)) {
      return error(404, `organization ${orgName} does not exist`);
    }
    const siteAdmin = caller.user.isAdmin && !caller.publicOnly;
    if (caller.user.id !== user.id && !siteAdmin && !row!.caller_member) {
      return error(
        403,
        "only the user, site administrators and the organization's members may see the user's permissions",
      );
    }
    const membership = membershipFrom((row!.user_teams ?? []).map(teamOf));
    const rank = levelRank(membership.level);
    return json(
      200,
      wire.toPermissions({
        canRead: rank > levelRank('none'),
        canWrite: rank > levelRank('read'),
        isAdmin: rank > levelRank('write'),
        isOwner: rank > levelRank('admin'),
        canCreateRepository: membership.canCreateRepository,
      }),
    );
  }

  async function feed(token: string | null, orgName: string, search: URLSearchParams) {
    const { limit, offset } = paging(search);
    const date = search.get('date');
    let from: Date | null = null;
    if (date !== null) {
      from = new Date(`${date}T00:00:00.000Z`);
      if (Number.isNaN(from.getTime()) || from.toISOString().slice(0, 10) !== date) {
        return error(422, `date: must be a date in the form YYYY-MM-DD [date: ${date}]`);
      }
    }
    const rows = await query<
      CallerRow & {
        org: Json | null;
        caller_teams: Json[] | null;
        id: string | null;
        op_type: string;
        is_private: boolean;
        content: string;
        ref_name: string;
        created_at: Date | string;
        act_user: Json;
        repo: Json;
        open_issues: string;
        open_pulls: string;
        collaboration: string | null;
        total: string;
      }
    >(
      `WITH ${CALLER_CTE},
       ct AS (SELECT t.* FROM teams t JOIN team_members m ON m.team_id = t.id
              JOIN accounts o ON o.id = t.org_id AND o.lower_name = lower($2)
              WHERE m.account_id = (SELECT (account->>'id')::bigint FROM caller))
       SELECT (SELECT row_to_json(c) FROM caller c) AS caller, row_to_json(o) AS org,
         (SELECT json_agg(row_to_json(ct)) FROM ct) AS caller_teams, page.*
       FROM (SELECT 1) one LEFT JOIN accounts o ON o.lower_name = lower($2)
       LEFT JOIN LATERAL (
         SELECT a.id, a.op_type, a.is_private, a.content, a.ref_name, a.created_at,
           row_to_json(u) AS act_user, row_to_json(r) AS repo,
           (SELECT count(*) FROM issues i WHERE i.repo_id = r.id AND NOT i.is_closed AND NOT i.is_pull) AS open_issues,
           (SELECT count(*) FROM issues i WHERE i.repo_id = r.id AND NOT i.is_closed AND i.is_pull) AS open_pulls,
           (SELECT permission FROM collaborations cb WHERE cb.repo_id = r.id
              AND cb.account_id = (SELECT (account->>'id')::bigint FROM caller)) AS collaboration,
           count(*) OVER () AS total
         FROM actions a JOIN repositories r ON r.id = a.repo_id JOIN accounts u ON u.id = a.act_user_id
         WHERE r.owner_id = o.id
           AND (NOT a.is_private OR EXISTS (SELECT 1 FROM caller c WHERE NOT (',' || c.scopes || ',' LIKE '%,public-only,%')
                 AND ((c.account->>'is_admin')::boolean OR EXISTS (SELECT 1 FROM ct))))
           AND ($5::timestamptz IS NULL OR (a.created_at >= $5 AND a.created_at < $5 + interval '1 day'))
         ORDER BY a.created_at DESC, a.id DESC LIMIT $3 OFFSET $4) page ON true`,
      [token && hashOf(token), orgName, limit, offset, from],
    );
    const first = rows[0];
    const caller = callerOf(first, token);
    if ('status' in caller) return caller;
    const org = first?.org ? accountOf(first.org) : undefined;
    const teams = (first?.caller_teams ?? []).map(teamOf);
    if (!org || org.type !== 'organization' || !seesAccount(caller, org, teams.length > 0)) {
      return error(404, `organization ${orgName} does not exist`);
    }
    const siteAdmin = caller.user !== undefined && caller.user.isAdmin && !caller.publicOnly;
    const membership = membershipFrom(caller.user && !siteAdmin ? teams : []);
    const activities = rows
      .filter((row) => row.id !== null)
      .map((row) => {
        const repository: RepositoryRecord = {
          id: Number(row.repo['id']),
          owner: org,
          name: row.repo['name'] as string,
          lowerName: row.repo['lower_name'] as string,
          description: row.repo['description'] as string,
          website: row.repo['website'] as string,
          isPrivate: row.repo['is_private'] as boolean,
          isArchived: row.repo['is_archived'] as boolean,
          archivedAt: row.repo['archived_at'] ? new Date(row.repo['archived_at'] as string) : undefined,
          openIssueCount: Number(row.open_issues),
          openPullCount: Number(row.open_pulls),
          createdAt: new Date(row.repo['created_at'] as string),
          updatedAt: new Date(row.repo['updated_at'] as string),
        };
        const level = repositoryLevelFrom(
          caller,
          repository,
          membership,
          (row.collaboration ?? 'none') as AccessLevel,
        );
        return wire.toActivity(
          {
            id: Number(row.id),
            actUser: accountOf(row.act_user),
            opType: row.op_type as never,
            repository,
            isPrivate: row.is_private,
            content: row.content,
            refName: row.ref_name,
            createdAt: new Date(row.created_at),
          },
          caller,
          level,
        );
      });
    return json(200, activities, { 'x-total-count': String(first?.total ?? 0) });
  }

  return async function handle(request: BaselineRequest): Promise<BaselineResponse> {
    const url = new URL(request.url, 'http://baseline');
    const path = url.pathname;
    if (path === '/readyz' || path === '/livez') return json(200, { status: 'ok' });
    const token = tokenOf(request, url.searchParams);
    if (token === undefined) return error(401, 'invalid username, password or token');
    let match: RegExpExecArray | null;
    const body = () => JSON.parse(request.body.toString('utf8') || '{}') as Json;
    if (path === '/api/v1/orgs')
      return request.method === 'POST' ? createOrg(token, body()) : listOrgs(token, url.searchParams);
    if ((match = /^\/api\/v1\/orgs\/([^/]+)$/.exec(path))) {
      const name = decodeURIComponent(match[1]!);
      return request.method === 'PATCH' ? editOrg(token, name, body()) : getOrg(token, name);
    }
    if (
      request.method === 'PATCH' &&
      (match = /^\/api\/v1\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/assets\/(\d+)$/.exec(path))
    ) {
      const [owner, repo, index, id] = match.slice(1).map((part) => decodeURIComponent(part));
      return renameAttachment(
        { query, wire, json, error, callerOf },
        token,
        { owner: owner!, repo: repo!, index: index!, id: id! },
        body(),
      );
    }
    if ((match = /^\/api\/v1\/orgs\/([^/]+)\/activities\/feeds$/.exec(path)))
      return feed(token, decodeURIComponent(match[1]!), url.searchParams);
    if ((match = /^\/api\/v1\/users\/([^/]+)\/orgs$/.exec(path)))
      return listOrgs(token, url.searchParams, decodeURIComponent(match[1]!));
    if ((match = /^\/api\/v1\/users\/([^/]+)\/orgs\/([^/]+)\/permissions$/.exec(path)))
      return permissions(token, decodeURIComponent(match[1]!), decodeURIComponent(match[2]!));
    return error(404, 'not found');
  };
}
