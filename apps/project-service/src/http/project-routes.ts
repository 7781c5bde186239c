import { createHttpError } from '@repo/http-errors';
import type { Request } from 'express';
import { projectNotFound } from '../domain/access';
import type { ListCursor, ListFilter, Project } from '../domain/records';
import type { ProjectService } from '../domain/projects';
import type { RepeatableList } from './body-codecs';
import { ConcurrencyGate, UNPAGED_LIST_DEFAULTS } from './concurrency-gate';
import { etagOf, notModified, revisionsAllowedBy, type RevisionCounter } from './etag';
import { listNeedsSnapshot } from './negotiation';
import { decodePageToken, encodePageToken } from './page-token';
import {
  listedProjectFull,
  newProjectOf,
  projectBaseOf,
  projectBaseUpdateOf,
  projectFullOf,
  projectSettingsOf,
  projectSettingsUpdateOf,
} from '../wire/project-representations';
import { settleSync, syncStatusHeader, type SyncOptions } from './x-sync';
import { RouteTable, type ResponseHeaders, type RouteAuth, type RouteContext } from './route-table';
import {
  ListProjectsQuery,
  ReadHeaders,
  UidPath,
  VersionQuery,
  WriteHeaders,
  type ProjectFull,
} from './schemas';

const LIST_CACHE_CONTROL = 'private, max-age=0, must-revalidate';
/**
 * Rows per database round trip while streaming the unpaged list: what one list holds in memory at
 * a time (the rows with their members, their wire form and one encoded chunk). 500 held ~150 MB
 * per list of large projects; 50 keeps it to a few MB at about the same speed.
 */
export const STREAM_BATCH_SIZE = 50;
/** Retry-After of the 429 past the bound of concurrent unpaged lists. */
const LIST_RETRY_AFTER_SECONDS = 2;
/** Page size when only page_token is given. */
const DEFAULT_PAGE_SIZE = 100;

const etagHeader: ResponseHeaders = {
  ETag: { description: 'strong entity tag of the representation', schema: { type: 'string' } },
};
const notModifiedResponse = { description: 'not modified', headers: etagHeader };
/** Every operation: a bearer JWT. */
const bearer: RouteAuth = { scheme: 'bearer' };
const CreateHeaders = WriteHeaders.pick({ 'X-Sync': true });
/** A read of one project: a malformed uid names no project, so 404 (the interface lists no 400 for reads). */
const readOneProject = {
  params: UidPath,
  query: VersionQuery,
  headers: ReadHeaders,
  malformedParams: projectNotFound,
};
/** A write of one project: a malformed uid is a 400 (the interface lists 400 for writes). */
const writeOneProject = { params: UidPath, query: VersionQuery, headers: WriteHeaders };

function representationWithEtag<Name extends 'ProjectBase' | 'ProjectSettings'>(
  description: string,
  representation: Name,
) {
  return { status: 200, description, headers: etagHeader, representation };
}

/** A write's response: its ETag and, when X-Sync asked for it, X-Sync-Status. */
const writeHeaders: ResponseHeaders = { ...etagHeader, ...syncStatusHeader };

/** GET with If-None-Match: 304 when the client's copy is current. */
function sendCurrent<Value>(
  { res, headers, send }: RouteContext<unknown, unknown, unknown, { 'If-None-Match'?: string }, Value>,
  value: Value,
  counter: RevisionCounter,
  revision: number,
): void {
  const etag = etagOf(counter, revision);
  if (notModified(headers['If-None-Match'], counter, revision)) {
    res.status(304).setHeader('ETag', etag).end();
    return;
  }
  send(value, { etag });
}

function listFilterOf(query: ListProjectsQuery): ListFilter {
  return {
    parentUid: query.parent_uid?.toLowerCase(),
    slug: query.slug,
    stage: query.stage,
    category: query.category,
    public: query.public === undefined ? undefined : query.public === 'true',
  };
}

/** The next page's URL: the same query with page_token replaced (relative, resolved against the request). */
function nextPageLink(req: Request, next: ListCursor): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(req.query as Record<string, unknown>)) {
    if (key !== 'page_token' && typeof value === 'string') params.set(key, value);
  }
  params.set('page_token', encodePageToken(next));
  return `<${req.baseUrl}${req.path}?${params.toString()}>; rel="next"`;
}

/** The list's rows as wire representations, converted one batch at a time as they are read. */
function wireBatches(list: { batches(): AsyncIterable<Project[]> }): RepeatableList {
  return {
    async *batches() {
      for await (const batch of list.batches()) yield batch.map(listedProjectFull);
    },
  };
}

function tooManyUnpagedLists() {
  return createHttpError(429, 'too many unpaged lists in progress; retry later, or page with page_size', {
    headers: { 'Retry-After': String(LIST_RETRY_AFTER_SECONDS) },
  });
}

export interface ProjectRouteOptions {
  /** Bounds the unpaged lists streaming at once (each holds a batch in memory and a connection). */
  unpagedLists?: ConcurrencyGate;
  /** What X-Sync waits on; X-Sync-Status is `disabled` without a relay. */
  sync?: SyncOptions;
}

/** The seven operations (docs/contracts/project-service.md): parse (the table does), call the use case, convert, send. */
export function projectRoutes(projects: ProjectService, options: ProjectRouteOptions = {}): RouteTable {
  const table = new RouteTable();
  const unpagedLists = options.unpagedLists ?? new ConcurrencyGate(UNPAGED_LIST_DEFAULTS);
  const sync = options.sync ?? { timeoutMs: 5000 };

  table.add({
    method: 'get',
    path: '/projects',
    operationId: 'get-projects',
    summary: 'List the projects the caller may view, ordered by name then uid',
    query: ListProjectsQuery,
    response: {
      status: 200,
      description: 'the projects',
      headers: {
        'Cache-Control': { schema: { type: 'string' } },
        Link: { description: 'next page, when paging', schema: { type: 'string' } },
      },
      representation: 'Projects',
    },
    errors: [400, 401, 406, 429, 500, 503],
    auth: bearer,
    async handle({ req, res, caller, query, send, stream }) {
      const filter = listFilterOf(query);
      const after = query.page_token === undefined ? undefined : decodePageToken(query.page_token);
      res.setHeader('Cache-Control', LIST_CACHE_CONTROL);
      if (query.page_size === undefined && query.page_token === undefined) {
        // A permit for as long as it streams: memory is the permit count times one batch.
        const release = await unpagedLists.acquire();
        if (!release) throw tooManyUnpagedLists();
        try {
          // Gone while it waited in line: nobody to stream to.
          if (req.socket.destroyed) return;
          // Converted to the wire a batch at a time: memory stays one batch.
          const streamed = (list: { batches(): AsyncIterable<Project[]> }) =>
            stream('projects', wireBatches(list));
          if (listNeedsSnapshot(req)) {
            await projects.withListSnapshot(caller, filter, STREAM_BATCH_SIZE, streamed);
          } else {
            await streamed({ batches: () => projects.listVisible(caller, filter, STREAM_BATCH_SIZE) });
          }
        } finally {
          release();
        }
        return;
      }
      const page = await projects.listPage(caller, filter, after, query.page_size ?? DEFAULT_PAGE_SIZE);
      const body: { projects: ProjectFull[]; next_page_token?: string } = {
        projects: page.projects.map(listedProjectFull),
      };
      if (page.next) {
        body.next_page_token = encodePageToken(page.next);
        res.setHeader('Link', nextPageLink(req, page.next));
      }
      send(body);
    },
  });

  table.add({
    method: 'post',
    path: '/projects',
    operationId: 'create-project',
    summary: 'Create a project under a parent the caller may write',
    query: VersionQuery,
    body: 'CreateProjectRequest',
    headers: CreateHeaders,
    response: { status: 201, description: 'created', headers: writeHeaders, representation: 'ProjectFull' },
    errors: [400, 401, 403, 406, 409, 415, 500, 503],
    auth: bearer,
    async handle({ req, res, caller, headers, body, send }) {
      const project = await projects.create(caller, newProjectOf(body));
      await settleSync(res, headers['X-Sync'], sync);
      res.setHeader('Location', `${req.baseUrl}/projects/${project.uid}`);
      send(projectFullOf(project), { etag: etagOf('base', project.baseRevision) });
    },
  });

  table.add({
    method: 'get',
    path: '/projects/{uid}',
    operationId: 'get-one-project-base',
    summary: "Read a project's base information, if the caller may view it",
    ...readOneProject,
    response: representationWithEtag('the base representation', 'ProjectBase'),
    notModified: notModifiedResponse,
    errors: [400, 401, 404, 406, 500, 503],
    auth: bearer,
    async handle(context) {
      const project = await projects.getBase(context.caller, context.params.uid.toLowerCase());
      sendCurrent(context, projectBaseOf(project), 'base', project.baseRevision);
    },
  });

  table.add({
    method: 'put',
    path: '/projects/{uid}',
    operationId: 'update-project-base',
    summary: "Replace a project's base information (a new parent_uid moves it), if the caller may write it",
    ...writeOneProject,
    body: 'UpdateProjectBaseRequest',
    response: { ...representationWithEtag('updated', 'ProjectBase'), headers: writeHeaders },
    errors: [400, 401, 403, 404, 406, 409, 412, 415, 500, 503],
    auth: bearer,
    async handle({ res, caller, params, headers, body, send }) {
      const project = await projects.updateBase(
        caller,
        params.uid.toLowerCase(),
        projectBaseUpdateOf(body),
        revisionsAllowedBy(headers['If-Match'], 'base'),
      );
      await settleSync(res, headers['X-Sync'], sync);
      send(projectBaseOf(project), { etag: etagOf('base', project.baseRevision) });
    },
  });

  table.add({
    method: 'delete',
    path: '/projects/{uid}',
    operationId: 'delete-project',
    summary: 'Delete a project that has no children, if the caller may write its parent',
    ...writeOneProject,
    response: { status: 204, description: 'deleted', headers: syncStatusHeader },
    errors: [400, 401, 403, 404, 409, 412, 500, 503],
    auth: bearer,
    async handle({ res, caller, params, headers }) {
      await projects.delete(
        caller,
        params.uid.toLowerCase(),
        revisionsAllowedBy(headers['If-Match'], 'base'),
      );
      await settleSync(res, headers['X-Sync'], sync);
      res.status(204).end();
    },
  });

  table.add({
    method: 'get',
    path: '/projects/{uid}/settings',
    operationId: 'get-one-project-settings',
    summary: "Read a project's settings (its writers, auditors, …), if the caller audits it",
    ...readOneProject,
    response: representationWithEtag('the settings', 'ProjectSettings'),
    notModified: notModifiedResponse,
    errors: [400, 401, 403, 404, 406, 500, 503],
    auth: bearer,
    async handle(context) {
      const project = await projects.getSettings(context.caller, context.params.uid.toLowerCase());
      sendCurrent(context, projectSettingsOf(project), 'settings', project.settingsRevision);
    },
  });

  table.add({
    method: 'put',
    path: '/projects/{uid}/settings',
    operationId: 'update-project-settings',
    summary: "Replace a project's settings, if the caller may write it",
    ...writeOneProject,
    body: 'UpdateProjectSettingsRequest',
    response: { ...representationWithEtag('updated', 'ProjectSettings'), headers: writeHeaders },
    errors: [400, 401, 403, 404, 406, 412, 415, 500, 503],
    auth: bearer,
    async handle({ res, caller, params, headers, body, send }) {
      const project = await projects.updateSettings(
        caller,
        params.uid.toLowerCase(),
        projectSettingsUpdateOf(body),
        revisionsAllowedBy(headers['If-Match'], 'settings'),
      );
      await settleSync(res, headers['X-Sync'], sync);
      send(projectSettingsOf(project), { etag: etagOf('settings', project.settingsRevision) });
    },
  });

  return table;
}
