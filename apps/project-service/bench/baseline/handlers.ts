/**
 * The baseline the bench compares project-service with: the stack's limit. It does the service's
 * per-request work with nothing in the way: the service's own token verifier, access rule
 * (accessOf over the service's membership and visibility SQL), If-Match reading, ETags and XML/gob
 * encoders, one SQL statement per request and the same response bytes, on node:http and pg (no
 * Express, zod, Prisma client or middleware). The service/baseline ratio thus measures what that
 * stack and the service's extra round trips cost (the baseline folds the access check into its
 * write and its list into one statement). It proves nothing about correctness or validation:
 * bodies are taken as well-formed, and only the bench's requests are answered (GET, PUT base
 * without moves, PUT settings, POST, DELETE, lists; JSON, XML, gob). test/baseline-identity.test.ts keeps
 * its answers byte-identical to the service's.
 */
import type { BaselineRequest, BaselineResponse, Query } from '@repo/testing/bench';
import { createTokenVerifier } from '../../src/auth/token-verifier';
import {
  membershipCte,
  membershipOf,
  visibleToCaller,
  type MembershipRow,
} from '../../src/db/project-access';
import { accessOf } from '../../src/domain/access';
import type { Caller } from '../../src/domain/caller';
import { Prisma } from '../../src/generated/prisma/client';
import { encodeGobRepresentation } from '../../src/http/gob/representation';
import { etagOf, revisionsAllowedBy } from '../../src/http/etag';
import { representations, type RepresentationName } from '../../src/http/representations';
import { encodeXmlRepresentation } from '../../src/http/xml/xml-encoder';

export interface BaselineOptions {
  query: Query;
  jwtSecret: string;
  adminPrincipals: string[];
  adminGroup: string;
}

interface Member {
  username: string;
  name: string;
  email: string;
  avatar: string;
}

interface ProjectRow {
  uid: string;
  slug: string;
  name: string;
  description: string;
  parent_uid: string | null;
  public: boolean;
  is_foundation: boolean;
  autojoin_enabled: boolean;
  category: string;
  stage: string;
  legal_entity_type: string;
  legal_entity_name: string;
  legal_parent_uid: string;
  funding_model: string[] | null;
  charter_url: string;
  entity_formation_document_url: string;
  logo_url: string;
  repository_url: string;
  website_url: string;
  formation_date: string;
  entity_dissolution_date: string;
  announcement_date: string;
  mission_statement: string;
  base_revision: number;
  settings_revision: number;
  created_at: Date | string;
  updated_at: Date | string;
  settings_updated_at: Date | string;
  /** [role, position, username, name, email, avatar] in role then position order. */
  members?: [string, number, string, string, string, string][] | null;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const PROJECT_COLUMNS =
  Prisma.raw(`p.uid::text AS uid, p.slug, p.name, p.description, p.parent_uid::text AS parent_uid, p.public,
  p.is_foundation, p.autojoin_enabled, p.category, p.stage, p.legal_entity_type, p.legal_entity_name,
  p.legal_parent_uid, p.funding_model, p.charter_url, p.entity_formation_document_url, p.logo_url,
  p.repository_url, p.website_url, p.formation_date, p.entity_dissolution_date, p.announcement_date,
  p.mission_statement, p.base_revision, p.settings_revision, p.created_at, p.updated_at, p.settings_updated_at`);
const MEMBERS_OF_P =
  Prisma.raw(`(SELECT json_agg(json_build_array(m.role, m.position, m.username, m.name, m.email, m.avatar)
    ORDER BY m.role, m.position) FROM project_members m WHERE m.project_uid = p.uid) AS members`);
const WRITTEN_MEMBERS =
  Prisma.raw(`(SELECT json_agg(json_build_array(w.role, w.position, w.username, w.name, w.email, w.avatar)
    ORDER BY w.role, w.position) FROM written w) AS members`);
/** accessOf().write inside the statement (over membershipCte), so a write is one round trip. */
const mayWrite = (caller: Caller) =>
  Prisma.sql`(${caller.isAdmin} OR (SELECT writer_of_chain FROM membership))`;

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();
const header = (request: BaselineRequest, name: string) => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/** An unset optional field ("" or an empty list) is left out of an answer, as the service does. */
const ifSet = <Value extends string | readonly unknown[]>(value: Value) =>
  value.length > 0 ? value : undefined;

function membersIn(row: ProjectRow, role: string) {
  const members = (row.members ?? [])
    .filter((member) => member[0] === role)
    .map(([, , username, name, email, avatar]) => ({
      avatar: ifSet(avatar),
      email: ifSet(email),
      name: ifSet(name),
      username: ifSet(username),
    }));
  return ifSet(members);
}

/** ProjectBase, keys in the order the service's schema writes them. */
function base(row: ProjectRow) {
  return {
    autojoin_enabled: row.autojoin_enabled,
    category: ifSet(row.category),
    charter_url: ifSet(row.charter_url),
    description: row.description,
    entity_dissolution_date: ifSet(row.entity_dissolution_date),
    entity_formation_document_url: ifSet(row.entity_formation_document_url),
    formation_date: ifSet(row.formation_date),
    funding_model: ifSet(row.funding_model ?? []),
    is_foundation: row.is_foundation,
    legal_entity_name: ifSet(row.legal_entity_name),
    legal_entity_type: ifSet(row.legal_entity_type),
    legal_parent_uid: ifSet(row.legal_parent_uid),
    logo_url: ifSet(row.logo_url),
    name: row.name,
    parent_uid: row.parent_uid ?? undefined,
    public: row.public,
    repository_url: ifSet(row.repository_url),
    slug: row.slug,
    stage: ifSet(row.stage),
    website_url: ifSet(row.website_url),
    uid: row.uid,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

function settings(row: ProjectRow) {
  return {
    announcement_date: ifSet(row.announcement_date),
    auditors: membersIn(row, 'auditor'),
    meeting_coordinators: membersIn(row, 'meeting_coordinator'),
    mission_statement: ifSet(row.mission_statement),
    writers: membersIn(row, 'writer'),
    uid: row.uid,
    created_at: iso(row.created_at),
    updated_at: iso(row.settings_updated_at),
  };
}

/** ProjectFull as POST answers it (schema order). */
function full(row: ProjectRow) {
  const updated =
    new Date(row.updated_at) > new Date(row.settings_updated_at) ? row.updated_at : row.settings_updated_at;
  const { uid, created_at, updated_at: _baseUpdated, ...common } = base(row);
  const { announcement_date, auditors, meeting_coordinators, mission_statement, writers } = settings(row);
  return {
    ...common,
    uid,
    created_at,
    updated_at: iso(updated),
    announcement_date,
    auditors,
    meeting_coordinators,
    mission_statement,
    writers,
  };
}

/** ProjectFull as the list writes it (the service's converter order: no schema pass). */
function listed(row: ProjectRow) {
  const updated =
    new Date(row.updated_at) > new Date(row.settings_updated_at) ? row.updated_at : row.settings_updated_at;
  return {
    uid: row.uid,
    slug: row.slug,
    name: row.name,
    description: row.description,
    parent_uid: row.parent_uid ?? undefined,
    public: row.public,
    is_foundation: row.is_foundation,
    autojoin_enabled: row.autojoin_enabled,
    category: ifSet(row.category),
    stage: ifSet(row.stage),
    legal_entity_type: ifSet(row.legal_entity_type),
    legal_entity_name: ifSet(row.legal_entity_name),
    legal_parent_uid: ifSet(row.legal_parent_uid),
    funding_model: ifSet(row.funding_model ?? []),
    charter_url: ifSet(row.charter_url),
    entity_formation_document_url: ifSet(row.entity_formation_document_url),
    logo_url: ifSet(row.logo_url),
    repository_url: ifSet(row.repository_url),
    website_url: ifSet(row.website_url),
    formation_date: ifSet(row.formation_date),
    entity_dissolution_date: ifSet(row.entity_dissolution_date),
    created_at: iso(row.created_at),
    updated_at: iso(updated),
    announcement_date: ifSet(row.announcement_date),
    mission_statement: ifSet(row.mission_statement),
    writers: membersIn(row, 'writer'),
    auditors: membersIn(row, 'auditor'),
    meeting_coordinators: membersIn(row, 'meeting_coordinator'),
  };
}

type Format = 'json' | 'xml' | 'gob';
const CONTENT_TYPES: Record<Format, string> = {
  json: JSON_TYPE,
  xml: 'application/xml; charset=utf-8',
  gob: 'application/gob',
};

function formatOf(request: BaselineRequest): Format {
  const accept = header(request, 'accept') ?? '';
  if (accept.includes('gob')) return 'gob';
  if (accept.includes('xml')) return 'xml';
  return 'json';
}

function representation(
  request: BaselineRequest,
  status: number,
  name: RepresentationName,
  value: unknown,
  extra: Record<string, string> = {},
): BaselineResponse {
  const format = formatOf(request);
  const body =
    format === 'json'
      ? JSON.stringify(value)
      : format === 'xml'
        ? encodeXmlRepresentation(representations[name], value)
        : encodeGobRepresentation(representations[name], value);
  return { status, headers: { ...extra, vary: 'Accept', 'content-type': CONTENT_TYPES[format] }, body };
}

function error(request: BaselineRequest, status: number, message: string): BaselineResponse {
  return representation(request, status, 'Error', { code: String(status), message });
}

const rightsOf = (caller: Caller, row: MembershipRow | undefined) => {
  const membership = membershipOf(row);
  return membership && accessOf(caller, membership);
};

function membersJson(body: Record<string, unknown>): string {
  const lists: [string, string][] = [
    ['writers', 'writer'],
    ['auditors', 'auditor'],
    ['meeting_coordinators', 'meeting_coordinator'],
  ];
  return JSON.stringify(
    lists.flatMap(([field, role]) =>
      ((body[field] as Partial<Member>[] | undefined) ?? []).map((member, position) => ({
        role,
        position,
        username: member.username ?? '',
        name: member.name ?? '',
        email: member.email ?? '',
        avatar: member.avatar ?? '',
      })),
    ),
  );
}

const BASE_FIELDS = [
  'slug',
  'name',
  'description',
  'public',
  'is_foundation',
  'autojoin_enabled',
  'category',
  'stage',
  'legal_entity_type',
  'legal_entity_name',
  'legal_parent_uid',
  'funding_model',
  'charter_url',
  'entity_formation_document_url',
  'logo_url',
  'repository_url',
  'website_url',
  'formation_date',
  'entity_dissolution_date',
] as const;
const BOOLEAN_FIELDS = new Set(['public', 'is_foundation', 'autojoin_enabled']);

function baseValues(body: Record<string, unknown>): unknown[] {
  return BASE_FIELDS.map((field) =>
    field === 'funding_model'
      ? (body[field] ?? [])
      : (body[field] ?? (BOOLEAN_FIELDS.has(field) ? false : '')),
  );
}

const baseAssignments = (body: Record<string, unknown>) => {
  const values = baseValues(body);
  return Prisma.join(
    BASE_FIELDS.map((field, i) => Prisma.sql`${Prisma.raw(field)} = ${values[i]}`),
    ', ',
  );
};

const UID_PATH = /^\/projects\/([0-9a-fA-F-]{36})(\/settings)?$/;

export function createBaseline(options: BaselineOptions) {
  const run = <Row>(sql: Prisma.Sql) => options.query<Row>(sql.text, sql.values);
  const verifyToken = createTokenVerifier({
    key: { kind: 'secret', secret: options.jwtSecret },
    adminPrincipals: options.adminPrincipals,
    adminGroup: options.adminGroup,
  });

  async function authenticate(request: BaselineRequest): Promise<Caller | undefined> {
    const token = (header(request, 'authorization') ?? '')
      .trim()
      .replace(/^Bearer\s+/i, '')
      .trim();
    if (!token) return undefined;
    return verifyToken(token).catch(() => undefined);
  }

  async function getOne(request: BaselineRequest, caller: Caller, uid: string, settingsPart: boolean) {
    const [row] = await run<MembershipRow & ProjectRow>(Prisma.sql`${membershipCte(uid, caller.principal)}
      SELECT a.*, ${PROJECT_COLUMNS}${settingsPart ? Prisma.sql`, ${MEMBERS_OF_P}` : Prisma.empty}
      FROM membership a LEFT JOIN projects p ON p.uid = ${uid}::uuid`);
    const access = rightsOf(caller, row);
    if (!row || !access?.view || !row.uid) return error(request, 404, 'project not found');
    if (settingsPart && !access.audit)
      return error(request, 403, "not allowed to view this project's settings");
    if (settingsPart) {
      return representation(request, 200, 'ProjectSettings', settings(row), {
        etag: etagOf('settings', row.settings_revision),
      });
    }
    return representation(request, 200, 'ProjectBase', base(row), {
      etag: etagOf('base', row.base_revision),
    });
  }

  async function putBase(
    request: BaselineRequest,
    caller: Caller,
    uid: string,
    body: Record<string, unknown>,
  ) {
    const allowed = revisionsAllowedBy(header(request, 'if-match'), 'base') ?? null;
    const parent = body['parent_uid'] === '' ? null : (body['parent_uid'] as string);
    const [row] = await run<
      MembershipRow & Partial<ProjectRow>
    >(Prisma.sql`${membershipCte(uid, caller.principal)},
      updated AS (
        UPDATE projects p SET ${baseAssignments(body)}, base_revision = p.base_revision + 1, updated_at = now()
        WHERE p.uid = ${uid}::uuid AND ${mayWrite(caller)}
          AND (${allowed}::int[] IS NULL OR p.base_revision = ANY(${allowed}::int[]))
          AND p.parent_uid IS NOT DISTINCT FROM ${parent}::uuid
        RETURNING ${PROJECT_COLUMNS}
      )
      SELECT a.*, u.* FROM membership a LEFT JOIN updated u ON true`);
    const access = rightsOf(caller, row);
    if (!row || !access?.view) return error(request, 404, 'project not found');
    if (!access.write) return error(request, 403, 'not allowed to update this project');
    if (!row.uid)
      return error(request, 412, 'the resource was changed: If-Match does not match the current ETag');
    const project = row as ProjectRow;
    return representation(request, 200, 'ProjectBase', base(project), {
      etag: etagOf('base', project.base_revision),
    });
  }

  async function putSettings(
    request: BaselineRequest,
    caller: Caller,
    uid: string,
    body: Record<string, unknown>,
  ) {
    const allowed = revisionsAllowedBy(header(request, 'if-match'), 'settings') ?? null;
    const [row] = await run<
      MembershipRow & Partial<ProjectRow>
    >(Prisma.sql`${membershipCte(uid, caller.principal)},
      updated AS (
        UPDATE projects p SET announcement_date = ${body['announcement_date'] ?? ''},
          mission_statement = ${body['mission_statement'] ?? ''},
          settings_revision = p.settings_revision + 1, settings_updated_at = now()
        WHERE p.uid = ${uid}::uuid AND ${mayWrite(caller)}
          AND (${allowed}::int[] IS NULL OR p.settings_revision = ANY(${allowed}::int[]))
        RETURNING ${PROJECT_COLUMNS}
      ), wanted AS (
        SELECT u.uid::uuid AS project_uid, m.* FROM updated u,
          jsonb_to_recordset(${membersJson(body)}::jsonb) AS m(role text, position int, username text, name text, email text, avatar text)
      ), removed AS (
        DELETE FROM project_members pm USING updated u WHERE pm.project_uid = u.uid::uuid
          AND NOT EXISTS (SELECT 1 FROM wanted w WHERE w.role = pm.role AND w.position = pm.position)
      ), written AS (
        INSERT INTO project_members (project_uid, role, position, username, name, email, avatar)
        SELECT project_uid, role, position, username, name, email, avatar FROM wanted
        ON CONFLICT (project_uid, role, position) DO UPDATE SET username = excluded.username,
          name = excluded.name, email = excluded.email, avatar = excluded.avatar
        RETURNING role, position, username, name, email, avatar
      )
      SELECT a.*, u.*, ${WRITTEN_MEMBERS} FROM membership a LEFT JOIN updated u ON true`);
    const access = rightsOf(caller, row);
    if (!row || !access?.view) return error(request, 404, 'project not found');
    if (!access.write) return error(request, 403, "not allowed to update this project's settings");
    if (!row.uid)
      return error(request, 412, 'the resource was changed: If-Match does not match the current ETag');
    const project = row as ProjectRow;
    return representation(request, 200, 'ProjectSettings', settings(project), {
      etag: etagOf('settings', project.settings_revision),
    });
  }

  async function create(request: BaselineRequest, caller: Caller, body: Record<string, unknown>) {
    const parent = body['parent_uid'] as string;
    try {
      const [row] = await run<
        MembershipRow & Partial<ProjectRow>
      >(Prisma.sql`${membershipCte(parent, caller.principal)},
        inserted AS (
          INSERT INTO projects AS p (uid, parent_uid, announcement_date, mission_statement, ${Prisma.raw(BASE_FIELDS.join(', '))})
          SELECT gen_random_uuid(), ${parent}::uuid, ${body['announcement_date'] ?? ''}, ${body['mission_statement'] ?? ''},
            ${Prisma.join(baseValues(body))}
          WHERE ${mayWrite(caller)}
          RETURNING ${PROJECT_COLUMNS}
        ), written AS (
          INSERT INTO project_members (project_uid, role, position, username, name, email, avatar)
          SELECT i.uid::uuid, m.role, m.position, m.username, m.name, m.email, m.avatar FROM inserted i,
            jsonb_to_recordset(${membersJson(body)}::jsonb)
              AS m(role text, position int, username text, name text, email text, avatar text)
          RETURNING role, position, username, name, email, avatar
        )
        SELECT a.*, i.*, ${WRITTEN_MEMBERS} FROM membership a LEFT JOIN inserted i ON true`);
      // A parent the caller may not view is answered as one that does not exist.
      if (!rightsOf(caller, row)?.view) return error(request, 400, 'invalid parent project');
      if (!row?.uid) return error(request, 403, 'not allowed to create a project under this parent');
      const project = row as ProjectRow;
      return representation(request, 201, 'ProjectFull', full(project), {
        etag: etagOf('base', project.base_revision),
        location: `/projects/${project.uid}`,
      });
    } catch (failure) {
      if ((failure as { code?: string }).code === '23505')
        return error(request, 409, 'slug: a project with this slug already exists');
      throw failure;
    }
  }

  async function remove(request: BaselineRequest, caller: Caller, uid: string) {
    const allowed = revisionsAllowedBy(header(request, 'if-match'), 'base') ?? null;
    try {
      const [row] = await run<MembershipRow & { deleted: number; is_root: boolean | null }>(
        Prisma.sql`${membershipCte(uid, caller.principal)},
        deleted AS (
          DELETE FROM projects p
          WHERE p.uid = ${uid}::uuid AND p.parent_uid IS NOT NULL
            AND (${caller.isAdmin} OR (SELECT writer_of_ancestors FROM membership))
            AND (${allowed}::int[] IS NULL OR p.base_revision = ANY(${allowed}::int[]))
          RETURNING p.uid
        )
        SELECT a.*, (SELECT count(*) FROM deleted)::int AS deleted,
          (SELECT p.parent_uid IS NULL FROM projects p WHERE p.uid = ${uid}::uuid) AS is_root
        FROM membership a`,
      );
      const access = rightsOf(caller, row);
      if (!row || !access?.view) return error(request, 404, 'project not found');
      if (!(caller.isAdmin || row.writer_of_ancestors))
        return error(request, 403, 'not allowed to delete this project');
      if (row.deleted > 0) return { status: 204, headers: {}, body: '' };
      if (row.is_root) return error(request, 400, 'the root project cannot be deleted');
      return error(request, 412, 'the resource was changed: If-Match does not match the current ETag');
    } catch (failure) {
      if (['23001', '23503'].includes((failure as { code?: string }).code ?? ''))
        return error(request, 409, 'the project still has child projects');
      throw failure;
    }
  }

  async function list(request: BaselineRequest, caller: Caller, search: URLSearchParams) {
    const conditions = [visibleToCaller(caller)];
    const parent = search.get('parent_uid');
    if (parent) conditions.push(Prisma.sql`p.parent_uid = ${parent.toLowerCase()}::uuid`);
    const pageSizeText = search.get('page_size');
    const token = search.get('page_token');
    const paged = pageSizeText !== null || token !== null;
    const pageSize = pageSizeText === null ? 100 : Number(pageSizeText);
    if (token) {
      const [name, uid] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as [string, string];
      conditions.push(Prisma.sql`(p.name COLLATE "C", p.uid) > (${name} COLLATE "C", ${uid}::uuid)`);
    }
    const rows = await run<ProjectRow>(Prisma.sql`
      SELECT ${PROJECT_COLUMNS}, ${MEMBERS_OF_P} FROM projects p
      WHERE ${Prisma.join(conditions, ' AND ')}
      ORDER BY p.name COLLATE "C", p.uid ${paged ? Prisma.sql`LIMIT ${pageSize + 1}` : Prisma.empty}`);
    const headers: Record<string, string> = { 'cache-control': 'private, max-age=0, must-revalidate' };
    if (!paged) return representation(request, 200, 'Projects', { projects: rows.map(listed) }, headers);
    const page = rows.slice(0, pageSize);
    const body: { projects: ReturnType<typeof listed>[]; next_page_token?: string } = {
      projects: page.map(listed),
    };
    const last = page.at(-1);
    if (rows.length > pageSize && last) {
      body.next_page_token = Buffer.from(JSON.stringify([last.name, last.uid]), 'utf8').toString('base64url');
      const next = new URLSearchParams();
      for (const [name, value] of search) if (name !== 'page_token') next.set(name, value);
      next.set('page_token', body.next_page_token);
      headers['link'] = `</projects?${next.toString()}>; rel="next"`;
    }
    return representation(request, 200, 'Projects', body, headers);
  }

  return async function handle(request: BaselineRequest): Promise<BaselineResponse> {
    const url = new URL(request.url, 'http://baseline');
    if (url.pathname === '/readyz' || url.pathname === '/livez')
      return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'OK' };
    const caller = await authenticate(request);
    if (!caller) return error(request, 401, 'invalid token');
    if (url.pathname === '/projects') {
      if (request.method === 'GET') return list(request, caller, url.searchParams);
      if (request.method === 'POST')
        return create(request, caller, JSON.parse(request.body.toString('utf8')) as Record<string, unknown>);
    }
    const match = UID_PATH.exec(url.pathname);
    if (match) {
      const uid = match[1]!.toLowerCase();
      const settingsPart = match[2] !== undefined;
      if (request.method === 'GET') return getOne(request, caller, uid, settingsPart);
      if (request.method === 'DELETE' && !settingsPart) return remove(request, caller, uid);
      if (request.method === 'PUT') {
        const body = JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;
        return settingsPart ? putSettings(request, caller, uid, body) : putBase(request, caller, uid, body);
      }
    }
    return error(request, 404, 'not found');
  };
}
