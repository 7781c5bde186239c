// Generated from apps/project-service/src/http/request-id.ts by `npm run sync:copies`: edit that file, not this copy.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const acceptableRequestId = /^[\w.:-]{1,128}$/;

const currentRequest = new AsyncLocalStorage<string>();

/** The id of the request whose work is running, for log lines written outside its req.log. */
export function currentRequestId(): string | undefined {
  return currentRequest.getStore();
}

/** Keeps a caller's (or gateway's) X-Request-Id when it is sane, else makes one; echoes it back. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && acceptableRequestId.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', id);
  // pino-http asks for the id first thing, so the rest of the request's work runs with it.
  currentRequest.enterWith(id);
  return id;
}
