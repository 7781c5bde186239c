import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hasCredentialShape } from '../log-secrets';
import { currentRequestContext, enterRequestContext } from '../request-context';

const acceptableRequestId = /^[\w.:-]{1,128}$/;

/** The id of the request whose work is running, for log lines written outside its req.log. */
export function currentRequestId(): string | undefined {
  return currentRequestContext()?.requestId;
}

/**
 * Keeps a caller's (or gateway's) X-Request-Id when it is sane, else makes one; echoes it back. Not
 * sane either: an id shaped like a credential (log-secrets.ts), which every line of the request
 * would show masked.
 */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id =
    typeof incoming === 'string' && acceptableRequestId.test(incoming) && !hasCredentialShape(incoming)
      ? incoming
      : randomUUID();
  res.setHeader('X-Request-Id', id);
  // Asked for first thing (request-observation.ts), so the rest of the request's work runs with it.
  enterRequestContext(id);
  return id;
}
