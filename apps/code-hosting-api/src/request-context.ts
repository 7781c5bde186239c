// Generated from apps/project-service/src/request-context.ts by `npm run sync:copies`: edit that file, not this copy.
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the code serving a request knows about it wherever it runs, without passing it down every
 * call: its id (log lines, change events), the caller it acts for once authenticated (an event's
 * `actor`), and the change events its writes recorded (X-Sync waits for them to be published).
 */
export interface RequestContext {
  requestId: string;
  actor?: string;
  /** Ids of the change events recorded by this request's committed writes, in order. */
  recordedEvents: string[];
}

const storage = new AsyncLocalStorage<RequestContext>();

let kept = false;

/**
 * From now on, this process keeps a context for each request: change events need it (their actor,
 * the ids X-Sync waits for), and the app asks for it when they are on. Off otherwise: on Node 20 an
 * AsyncLocalStorage in use makes every promise of the process cost more (its promise hooks), about
 * 0.03 ms of CPU per request here, and a request's log lines name it without one
 * (request-observation.ts gives its logger and its access line the id). Tracing, when on, enters
 * OpenTelemetry's own context per request, which costs the same hooks.
 */
export function keepRequestContexts(): void {
  kept = true;
}

/**
 * Starts the context of a request, when contexts are kept: the rest of its work (every await
 * after) runs inside it. Undefined when they are not.
 */
export function enterRequestContext(requestId: string): RequestContext | undefined {
  if (!kept) return undefined;
  const context: RequestContext = { requestId, recordedEvents: [] };
  storage.enterWith(context);
  return context;
}

/** The context of the request whose work is running; undefined outside requests (commands, start-up). */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

/** Names the caller the current request acts for (the authenticated principal or user). */
export function setRequestActor(actor: string): void {
  const context = storage.getStore();
  if (context) context.actor = actor;
}
