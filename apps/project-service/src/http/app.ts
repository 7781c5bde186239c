import { createErrorHandler, routeNotFound } from '@repo/http-errors';
import express from 'express';
import type { AuthConfig } from '../auth/auth-config';
import { createTokenVerifier } from '../auth/token-verifier';
import type { ProjectService } from '../domain/projects';
import { EVENT_STREAM_NAME } from '../events/catalog';
import type { ServiceEvents } from '../events/service-events';
import type { Logger } from '../logger';
import { UNTRACED_PATHS } from '../untraced-paths';
import { authenticate } from './authentication';
import { wakeRelayAfterWrites } from './event-wakeup';
import { apiDocsRoutes } from './docs/api-docs';
import type { ConcurrencyGate } from './concurrency-gate';
import { healthRoutes } from './health';
import { metricsRoute } from './metrics';
import { requireAcceptableResponse, sendErrorRepresentation } from './negotiation';
import type { ErrorBody } from './schemas';
import {
  ASYNCAPI_DOCUMENT_PATH,
  asyncApiRoute,
  eventsDocument,
  OPENAPI_DOCUMENT_PATH,
  openApiRoute,
  type EventsDocumentSettings,
} from './openapi-route';
import { projectRoutes } from './project-routes';
import { observeRequests, type ObservedApp } from './request-observation';
import { keepRequestContexts } from '../request-context';

/** The use cases the app serves (src/compose.ts builds them). */
export interface AppServices {
  projects: ProjectService;
}

export interface AppOptions {
  services: AppServices;
  /** True when the database answers (the readiness probe). */
  isReady(): Promise<boolean>;
  logger: Logger;
  auth: AuthConfig;
  /** Bounds the unpaged lists streaming at once (UNPAGED_LIST_* in config.ts); 4 when not given. */
  unpagedLists?: ConcurrencyGate;
  /** When set, GET /metrics needs it as a bearer token. */
  metricsToken?: string;
  /** Change events (NATS_URL set): writes record them, X-Sync waits for them. */
  events?: ServiceEvents;
  /** X-Sync's bound on waiting for a write's event; 5000 when not given. */
  xSyncTimeoutMs?: number;
  /**
   * What the AsyncAPI document says of the events (source, stream, subject prefix, NATS servers);
   * source http://localhost:8080/, stream PROJECTS and no prefix when not given.
   */
  eventsDocument?: EventsDocumentSettings;
}

const DEFAULT_EVENTS_DOCUMENT: EventsDocumentSettings = {
  source: 'http://localhost:8080/',
  streamName: EVENT_STREAM_NAME,
  subjectPrefix: '',
};

/**
 * Builds the Express app and returns its request listener, observed (request-observation.ts);
 * listening is main.ts's job, so tests run the very same listener.
 */
export function buildApp({
  services,
  isReady,
  logger,
  auth,
  metricsToken,
  unpagedLists,
  events,
  xSyncTimeoutMs = 5000,
  eventsDocument: eventsSettings = DEFAULT_EVENTS_DOCUMENT,
}: AppOptions): ObservedApp {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // A repeated parameter as an array, a bracketed name as written (never an object): what the
  // route table's one-value rule reads (single-valued-query.ts). Express 5's default, pinned.
  app.set('query parser', 'simple');
  // Change events need each request's context (their actor, X-Sync), and their relay a wake-up
  // after each write: both only when they are on (a middleware layer costs every request).
  if (events) {
    keepRequestContexts();
    app.use(wakeRelayAfterWrites(events.relay));
  }
  const routes = projectRoutes(services.projects, {
    unpagedLists,
    sync: { relay: events?.relay, timeoutMs: xSyncTimeoutMs },
  });
  // The API first: every router before it is tried on every API request. None of the paths
  // below is under /projects.
  app.use(routes.methods());
  app.use('/projects', authenticate(createTokenVerifier(auth)), requireAcceptableResponse);
  app.use(routes.router());
  app.use(metricsRoute(metricsToken));
  // As LFX's design declares its probes: text/plain OK, and the usual error body for a 503 (not
  // through the error handler: a probe's 503 is an answer, not a failure to log at every probe).
  app.use(
    healthRoutes(isReady, {
      ready: (_req, res) => res.type('text/plain').send('OK'),
      unready: (req, res, reason) => sendErrorRepresentation(req, res, 503, { code: '503', message: reason }),
    }),
  );
  app.use(openApiRoute(routes));
  const asyncApi = eventsDocument(eventsSettings);
  app.use(asyncApiRoute(asyncApi));
  // The page a person reads the API on, beside the documents it shows.
  app.use(
    apiDocsRoutes({
      pagePath: '/_projects/docs',
      documentPath: OPENAPI_DOCUMENT_PATH,
      title: 'project-service API',
      events: { documentPath: ASYNCAPI_DOCUMENT_PATH, document: asyncApi },
    }),
  );
  app.use(routeNotFound());
  app.use(
    createErrorHandler({
      // The only builder of the Error body; the codecs render it as JSON, XML or gob.
      formatBody: (error): ErrorBody => ({ code: String(error.status), message: error.message }),
      send: (req, res, error, body) => sendErrorRepresentation(req, res, error.status, body),
    }),
  );
  return observeRequests(app, { logger, quietPaths: UNTRACED_PATHS });
}
