import { HttpError } from './http-error';
import { readNumber, readString } from './guards';

/**
 * Express's router decodes each path parameter with `decodeURIComponent`; a malformed escape
 * (`%ZZ`, `%FF`, a lone `%`) throws a URIError that the router marks `status: 400` without
 * `expose`. The path came from the client, so it is the client's mistake: the app's validation
 * status, with a fixed message (the router's own quotes the raw segment).
 */
export function fromMalformedPath(error: unknown, validationStatus: 400 | 422): HttpError | undefined {
  if (readString(error, 'name') !== 'URIError' || readNumber(error, 'status') !== 400) return undefined;
  return new HttpError(validationStatus, 'malformed path: a segment is not valid percent-encoded UTF-8');
}
