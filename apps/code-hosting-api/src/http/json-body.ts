import { createHttpError } from '@repo/http-errors';
import express, { type Request, type RequestHandler } from 'express';
import { refuseInvalidUtf8 } from './utf8-body';

// The operations with a body take JSON, read as Gitea's binding reads it: a body declared as a
// form (urlencoded or multipart) is a form, anything else is parsed as JSON (fetch() sends a
// string body as text/plain). Here a form, or a body of another declared type that is not JSON,
// answers 415 saying the endpoint takes JSON, never read as `{}` ("username is required").
//
// Nothing about the body is answered before the operation has decided who may act (Gitea reads
// the body after its authorization middleware): a body that cannot be read is remembered here
// and refused by the operation that would read it (route-table.ts).

/** Bodies that could not be read, and why. */
const unreadable = new WeakMap<Request, unknown>();

function declaresForm(req: Request): boolean {
  return /multipart|form-urlencoded/i.test(req.headers['content-type'] ?? '');
}

/** Declared as JSON (`application/json`, `…+json`), or not declared at all. */
function declaresJson(req: Request): boolean {
  if (req.headers['content-type'] === undefined) return true;
  return Boolean(req.is(['application/json', '+json']));
}

/** Whether the request carries a body (a length above 0, or chunked). */
function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

const parseJson = express.json({
  limit: '1mb',
  type: (req) => !declaresForm(req as Request),
  verify: refuseInvalidUtf8,
});

/** Parses a JSON body (at most 1 MB, valid UTF-8); a failure waits for the operation. */
export const jsonBody: RequestHandler = (req, res, next) => {
  parseJson(req, res, (error?: unknown) => {
    if (error !== undefined) unreadable.set(req, error);
    next();
  });
};

function notJson(req: Request) {
  return createHttpError(
    415,
    `this endpoint takes a JSON body (Content-Type: application/json), not ${req.headers['content-type']}`,
  );
}

/** The JSON body of an operation that reads one; 415 for a form or another type that is not JSON. */
export function jsonBodyOf(req: Request): unknown {
  if (hasBody(req) && declaresForm(req)) throw notJson(req);
  const error = unreadable.get(req);
  if (error !== undefined) {
    const parseFailed = (error as { type?: unknown }).type === 'entity.parse.failed';
    throw parseFailed && !declaresJson(req) ? notJson(req) : error;
  }
  return req.body ?? {};
}
