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

/** Starts the context of a request: the rest of its work (every await after) runs inside it. */
export function enterRequestContext(requestId: string): RequestContext {
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
