import { createHttpError } from '@repo/http-errors';
import express, { type Request, type RequestHandler } from 'express';
import { refuseInvalidUtf8 } from './utf8-body';

// The operations with a body take JSON, as Gitea's API does (its clients always send JSON).
// A body of another type is refused with 415 by the operation that would read it, never read
// as an empty object: a form-encoded `username=x` must not answer "username is required".

/** JSON (`application/json`, `…+json`), or a body that declares no type at all (read as JSON). */
function declaresJson(req: Request): boolean {
  if (req.headers['content-type'] === undefined) return true;
  return Boolean(req.is(['application/json', '+json']));
}

/** Whether the request carries a body (a length above 0, or chunked). */
function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Parses a JSON body (at most 1 MB, valid UTF-8); other bodies are left for the operation to refuse. */
export const jsonBody: RequestHandler = express.json({
  limit: '1mb',
  type: (req) => declaresJson(req as Request),
  verify: refuseInvalidUtf8,
});

/** 415 for a body that is not JSON sent to an operation that reads a JSON body. */
export function assertJsonBody(req: Request): void {
  if (hasBody(req) && !declaresJson(req)) {
    throw createHttpError(
      415,
      `this endpoint takes a JSON body (Content-Type: application/json), not ${req.headers['content-type']}`,
    );
  }
}
