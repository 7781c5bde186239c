import { createHttpError } from '@repo/http-errors';
import express, { Router, type Request, type Response } from 'express';
import {
  CreateProjectRequest,
  ListProjectsQuery,
  UpdateProjectBaseRequest,
  UpdateProjectSettingsRequest,
  type ProjectFull,
} from './schemas';
import { etagOf, notModified, revisionsAllowedBy, type RevisionCounter } from './etag';
import type { ListCursor, ListFilter, Project } from '../domain/records';
import {
  listedProjectFull,
  newProjectOf,
  projectBaseOf,
  projectBaseUpdateOf,
  projectFullOf,
  projectSettingsOf,
  projectSettingsUpdateOf,
} from './project-representations';
import type { ProjectService } from '../domain/projects';
import { callerOf } from './authentication';
import type { RepeatableList } from './body-codecs';
import { listNeedsSnapshot, readBody, sendRepresentation, streamListRepresentation } from './negotiation';
import type { RepresentationName } from './representations';
import { decodePageToken, encodePageToken } from './page-token';
import {
  checkVersion,
  ifMatchOf,
  ifNoneMatchOf,
  syncRequested,
  uidForRead,
  uidForWrite,
} from './request-parameters';

const LIST_CACHE_CONTROL = 'private, max-age=0, must-revalidate';
/** Rows per database round trip while streaming the unpaged list. */
const STREAM_BATCH_SIZE = 500;
/** Page size when only page_token is given. */
const DEFAULT_PAGE_SIZE = 100;
const BODY_LIMIT = '1mb';

// Raw bytes only; negotiation.ts decodes them by Content-Type.
const rawBody = express.raw({ type: () => true, limit: BODY_LIMIT });

function sendWithEtag(
  req: Request,
  res: Response,
  status: number,
  name: RepresentationName,
  value: unknown,
  etag: string,
): void {
  res.setHeader('ETag', etag);
  sendRepresentation(req, res, status, name, value);
}

/** GET with If-None-Match: 304 when the client's copy is current. */
function sendCurrent(
  req: Request,
  res: Response,
  name: RepresentationName,
  value: unknown,
  counter: RevisionCounter,
  revision: number,
) {
  const etag = etagOf(counter, revision);
  if (notModified(ifNoneMatchOf(req), counter, revision)) {
    res.status(304).setHeader('ETag', etag).end();
    return;
  }
  sendWithEtag(req, res, 200, name, value, etag);
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

/** The seven operations of the seed: parse, call the use case, encode. */
export function projectRoutes(projects: ProjectService): Router {
  const router = Router();

  router.get('/projects', async (req, res) => {
    checkVersion(req);
    const query = ListProjectsQuery.parse(req.query);
    const caller = callerOf(res);
    const filter = listFilterOf(query);
    const after = query.page_token === undefined ? undefined : decodePageToken(query.page_token);
    res.setHeader('Cache-Control', LIST_CACHE_CONTROL);
    if (query.page_size === undefined && query.page_token === undefined) {
      // Converted to the wire a batch at a time: memory stays one batch.
      const stream = (list: { batches(): AsyncIterable<Project[]> }) =>
        streamListRepresentation(req, res, 'Projects', 'projects', wireBatches(list));
      if (listNeedsSnapshot(req)) {
        await projects.withListSnapshot(caller, filter, STREAM_BATCH_SIZE, stream);
      } else {
        await stream({ batches: () => projects.listVisible(caller, filter, STREAM_BATCH_SIZE) });
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
    sendRepresentation(req, res, 200, 'Projects', body);
  });

  router.post('/projects', rawBody, async (req, res) => {
    checkVersion(req);
    syncRequested(req);
    const request = CreateProjectRequest.parse(readBody(req, 'CreateProjectRequest'));
    const project = await projects.create(callerOf(res), newProjectOf(request));
    res.setHeader('Location', `${req.baseUrl}/projects/${project.uid}`);
    sendWithEtag(req, res, 201, 'ProjectFull', projectFullOf(project), etagOf('base', project.baseRevision));
  });

  router.get('/projects/:uid', async (req, res) => {
    checkVersion(req);
    const project = await projects.getBase(callerOf(res), uidForRead(req));
    sendCurrent(req, res, 'ProjectBase', projectBaseOf(project), 'base', project.baseRevision);
  });

  router.put('/projects/:uid', rawBody, async (req, res) => {
    checkVersion(req);
    syncRequested(req);
    const uid = uidForWrite(req);
    const request = UpdateProjectBaseRequest.parse(readBody(req, 'UpdateProjectBaseRequest'));
    const project = await projects.updateBase(
      callerOf(res),
      uid,
      projectBaseUpdateOf(request),
      revisionsAllowedBy(ifMatchOf(req), 'base'),
    );
    sendWithEtag(req, res, 200, 'ProjectBase', projectBaseOf(project), etagOf('base', project.baseRevision));
  });

  router.delete('/projects/:uid', async (req, res) => {
    checkVersion(req);
    syncRequested(req);
    const uid = uidForWrite(req);
    await projects.delete(callerOf(res), uid, revisionsAllowedBy(ifMatchOf(req), 'base'));
    res.status(204).end();
  });

  router.get('/projects/:uid/settings', async (req, res) => {
    checkVersion(req);
    const project = await projects.getSettings(callerOf(res), uidForRead(req));
    sendCurrent(
      req,
      res,
      'ProjectSettings',
      projectSettingsOf(project),
      'settings',
      project.settingsRevision,
    );
  });

  router.put('/projects/:uid/settings', rawBody, async (req, res) => {
    checkVersion(req);
    syncRequested(req);
    const uid = uidForWrite(req);
    const request = UpdateProjectSettingsRequest.parse(readBody(req, 'UpdateProjectSettingsRequest'));
    const project = await projects.updateSettings(
      callerOf(res),
      uid,
      projectSettingsUpdateOf(request),
      revisionsAllowedBy(ifMatchOf(req), 'settings'),
    );
    sendWithEtag(
      req,
      res,
      200,
      'ProjectSettings',
      projectSettingsOf(project),
      etagOf('settings', project.settingsRevision),
    );
  });

  // Unsupported methods on known paths are 405, not 404.
  const allowed: Record<string, string> = {
    '/projects': 'GET, POST',
    '/projects/:uid': 'GET, PUT, DELETE',
    '/projects/:uid/settings': 'GET, PUT',
  };
  for (const [path, methods] of Object.entries(allowed)) {
    router.all(path, () => {
      throw createHttpError(405, 'method not allowed', { headers: { Allow: methods } });
    });
  }

  return router;
}
