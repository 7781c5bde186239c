/**
 * What the access log may say about a request's URL. A client can put a credential in the query
 * (`?access_token=`, `?api_key=`), whether or not this service reads it there; the log keeps the
 * parameter's name and drops its value. The Authorization and Cookie headers are redacted by the
 * logger itself (logger.ts).
 */

/** Query parameter names that may carry a credential (matched on the decoded, lower-cased name). */
const SECRET_PARAMETER = /token|secret|passw|api[-_]?key|auth|jwt|signature|session|credential/;

export const REDACTED = '[redacted]';

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    // A malformed escape: judge the name as sent.
    return raw.toLowerCase();
  }
}

function isSecretParameter(name: string): boolean {
  return SECRET_PARAMETER.test(decodedName(name));
}

/** `url` with the value of every credential-like query parameter replaced; the rest kept as sent. */
export function redactedUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const pairs = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return isSecretParameter(name) ? `${name}=${REDACTED}` : pair;
    });
  return `${url.slice(0, queryStart)}?${pairs.join('&')}`;
}

/** The parsed query with the same parameters' values replaced. */
function redactedQuery(query: unknown): unknown {
  if (typeof query !== 'object' || query === null) return query;
  return Object.fromEntries(
    Object.entries(query).map(([name, value]) => [name, isSecretParameter(name) ? REDACTED : value]),
  );
}

interface SerializedRequest {
  url?: string;
  query?: unknown;
  [field: string]: unknown;
}

/**
 * pino-http's `req` serializer: it receives pino's standard serialization of the request
 * (id, method, url, query, params, headers, remote address) and returns it with the query's
 * credentials redacted in both `url` and `query`.
 */
export function accessLogRequest(req: SerializedRequest): SerializedRequest {
  return {
    ...req,
    url: req.url === undefined ? undefined : redactedUrl(req.url),
    query: redactedQuery(req.query),
  };
}
