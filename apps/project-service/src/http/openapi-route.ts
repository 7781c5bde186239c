import { Router } from 'express';
import { asyncApiDocument, type AsyncApiDocument } from '../events/asyncapi';
import type { RouteTable } from './route-table';

const TITLE = 'project-service';
const VERSION = '0.0.1';

/** Where the events the AsyncAPI document describes come from and go to (config's values). */
export interface EventsDocumentSettings {
  /** The events' `source`: the service's public base URL. */
  source: string;
  streamName: string;
  subjectPrefix: string;
  /** NATS_URL; the document names its hosts, never its credentials. */
  natsUrl?: string;
}

export const OPENAPI_DOCUMENT_PATH = '/_projects/openapi3.json';
export const ASYNCAPI_DOCUMENT_PATH = '/_projects/asyncapi.json';

export function openApiRoute(routes: RouteTable): Router {
  // Generated once: the operations do not change while the process runs.
  const document = JSON.stringify(
    routes.document({
      title: TITLE,
      version: VERSION,
      description: 'Projects arranged in a hierarchy, with base information and settings.',
    }),
  );
  const router = Router();
  router.get(OPENAPI_DOCUMENT_PATH, (_req, res) => {
    res.type('application/json').send(document);
  });
  return router;
}

/** The AsyncAPI 3.0 document of the change events project-service publishes. */
export function eventsDocument(settings: EventsDocumentSettings): AsyncApiDocument {
  return asyncApiDocument({
    title: TITLE,
    version: VERSION,
    description: 'The changes of projects, as project-service publishes them.',
    ...settings,
  });
}

export function asyncApiRoute(document: AsyncApiDocument): Router {
  const body = JSON.stringify(document);
  const router = Router();
  router.get(ASYNCAPI_DOCUMENT_PATH, (_req, res) => {
    res.type('application/json').send(body);
  });
  return router;
}
