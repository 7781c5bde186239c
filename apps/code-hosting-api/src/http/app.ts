import { createErrorHandler, routeNotFound } from '@repo/http-errors';
import express from 'express';
import { defaultSettings, type ServiceSettings } from '../config';
import { asyncApiDocument } from '../events/asyncapi';
import { EVENT_STREAM_NAME } from '../events/catalog';
import type { ServiceEvents } from '../events/service-events';
import { wakeRelayAfterWrites } from './event-wakeup';
import type { Logger } from '../logger';
import { redactedRequest } from '../log-secrets';
import { UNTRACED_PATHS } from '../untraced-paths';
import type { Storage } from '../storage/storage';
import { apiRoutes } from './api-routes';
import { apiDocsRoutes } from './docs/api-docs';
import { authenticate, settleAuthentication, settleAuthenticationOnError } from './authentication';
import { giteaHealthRoutes } from './gitea-health';
import { healthRoutes } from './health';
import { jsonBody } from './json-body';
import { metricsRoute } from './metrics';
import { firstValues } from './query-string';
import { observeRequests, type ObservedApp } from './request-observation';
import type { ApiServices } from './api-services';
import type { APIError } from './schemas';
import type { AccountService } from '../domain/accounts';
import type { LoginThrottle } from '../domain/login-throttle';
import { keepRequestContexts } from '../request-context';

/** The use cases the app serves (src/compose.ts builds them), with the login throttle. */
export type AppServices = Pick<
  ApiServices,
  'accounts' | 'organizations' | 'teams' | 'repositories' | 'attachments' | 'wire'
> & { accounts: AccountService; throttle: LoginThrottle };

export interface AppOptions {
  services: AppServices;
  /** True when the database answers (the readiness probes). */
  isReady(): Promise<boolean>;
  logger: Logger;
  rootUrl: string;
  settings?: ServiceSettings;
  /** Attachment storage; the app uses it, its owner closes it. */
  storage: Storage;
  /** When set, GET /metrics needs it as a bearer token. */
  metricsToken?: string;
  /** Change events (NATS_URL set): writes record them, X-Sync waits for them. */
  events?: ServiceEvents;
  /** X-Sync's bound on waiting for a write's event; 5000 when not given. */
  xSyncTimeoutMs?: number;
  /**
   * What the AsyncAPI document says of the events besides their source (ROOT_URL): the stream,
   * the subject prefix, the NATS servers. Stream CODE_HOSTING and no prefix when not given.
   */
  eventsDocument?: EventsDocumentSettings;
}

export interface EventsDocumentSettings {
  streamName: string;
  subjectPrefix: string;
  /** NATS_URL; the document names its hosts, never its credentials. */
  natsUrl?: string;
}

const DEFAULT_EVENTS_DOCUMENT: EventsDocumentSettings = { streamName: EVENT_STREAM_NAME, subjectPrefix: '' };

/** The app, and what finishes after its responses (a token's last use) for shutdown to wait on. */
export interface BuiltApp {
  /** The Express app's request listener, observed (request-observation.ts), with its server's options. */
  app: ObservedApp;
  /** Resolves once the background writes started so far are done. */
  settled(): Promise<void>;
}

/**
 * Builds the Express app, with the hook shutdown waits on before it closes the database;
 * listening is main.ts's job, so tests run the very same app.
 */
export function buildApp({
  services,
  isReady,
  logger,
  rootUrl,
  settings = defaultSettings,
  storage,
  metricsToken,
  events,
  xSyncTimeoutMs = 5000,
  eventsDocument = DEFAULT_EVENTS_DOCUMENT,
}: AppOptions): BuiltApp {
  const { accounts, throttle } = services;
  const authenticator = authenticate(accounts, throttle);
  const routes = apiRoutes(
    {
      ...services,
      storage,
      settings,
      rootUrl,
      sync: { relay: events?.relay, timeoutMs: xSyncTimeoutMs },
    },
    [authenticator],
  );
  const swaggerDocument = routes.document(rootUrl);
  const eventsAsyncApi = asyncApiDocument({
    title: 'code-hosting-api',
    version: '1.0.0',
    description: 'The changes of organizations and issue attachments, as code-hosting-api publishes them.',
    source: rootUrl,
    ...eventsDocument,
  });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', settings.trustProxy);
  app.set('etag', false);
  app.set('query parser', firstValues);
  // Change events need each request's context (their actor, X-Sync), and their relay a wake-up
  // after each write: both only when they are on (a middleware layer costs every request).
  if (events) {
    keepRequestContexts();
    app.use(wakeRelayAfterWrites(events.relay));
  }
  // The API first: every router before it is tried on every API request. None of the paths below
  // it is under /api/v1.
  app.use(
    '/api/v1',
    jsonBody,
    authenticator,
    routes.router,
    settleAuthentication,
    settleAuthenticationOnError,
  );
  app.use(metricsRoute(metricsToken));
  app.use(
    healthRoutes(isReady, {
      ready: (_req, res) => res.json({ status: 'ok' }),
      unready: (_req, res, reason) => res.status(503).json({ status: reason }),
    }),
  );
  app.use(giteaHealthRoutes(isReady));
  app.get('/swagger.v1.json', (_req, res) => {
    res.json(swaggerDocument);
  });
  app.get('/asyncapi.json', (_req, res) => {
    res.json(eventsAsyncApi);
  });
  // The page a person reads, where Gitea serves it and where every error body's url points.
  app.use(
    apiDocsRoutes({
      pagePath: '/api/swagger',
      documentPath: '/swagger.v1.json',
      title: 'code-hosting-api: Gitea API v1',
      events: { documentPath: '/asyncapi.json', document: eventsAsyncApi },
    }),
  );
  // Attachment downloads, at ROOT_URL/attachments/{uuid} as Gitea serves them.
  app.use(routes.siteRouter);
  app.use(routeNotFound());
  app.use(
    createErrorHandler({
      // Gitea's error body, for every status, built here only; request validation fails with 422 as in Gitea.
      formatBody: (error): APIError => ({ message: error.message, url: `${rootUrl}api/swagger` }),
      validationStatus: 422,
    }),
  );
  const settled = async () => {
    await Promise.all([accounts.tokenUseSettled(), throttle.settled()]);
  };
  const observed = observeRequests(app, {
    logger,
    quietPaths: UNTRACED_PATHS,
    // The method and the URL (redacted) only: Gitea clients send credentials in many headers.
    serializeRequest: (req) => {
      const { id, method, url } = redactedRequest(req);
      return { id, method, url };
    },
  });
  return { app: observed, settled };
}
