/**
 * What never reaches a log line or a span: credentials, wherever a client put them. The one
 * definition every logger and the tracer of the service use: the access log's request serializer
 * (http/request-observation.ts, http/app.ts), the base logger's last-line scrub (logger.ts), the
 * request ids kept (http/request-id.ts) and the spans exported (span-secrets.ts). Copied to every
 * app (scripts/sync-copies.mjs) with every app's credentials on purpose: a credential either
 * service accepts is masked by both.
 *
 * Two rules, both applied to the URL (path and query), the query, the path parameters and every
 * header of a request, and, as a last line of defence, to every serialized line and span:
 * - by name: the value of a header, query parameter or logged field whose name contains one of
 *   SECRET_NAME_FRAGMENTS, whatever the value;
 * - by shape: a JWT or 40 hex digits (a Gitea access token), whatever the name, or where no name
 *   is (a path segment, a message quoting a URL).
 * Only the credential becomes `[redacted]`: the rest of the path, the other parameters and headers
 * stay as sent.
 *
 * `Sudo` (header or query, code-hosting-api) names the user an administrator acts as: a user name,
 * not a credential, so it stays readable.
 */

/**
 * A header, query parameter or logged field whose name contains one of these, in any case, holds a
 * credential: `Authorization`, `Cookie`, `X-Api-Key`, `X-Csrf-Token`, `X-Amz-Security-Token`,
 * `X-Gitea-OTP`, `access_token`, `client_secret`, `password`… The one list every name rule is
 * made from.
 */
export const SECRET_NAME_FRAGMENTS = [
  'token',
  'secret',
  'key',
  'auth',
  'session',
  'csrf',
  'signature',
  'passw',
  'jwt',
  'credential',
  'cookie',
  'otp',
] as const;

export const REDACTED = '[redacted]';

const NAME_FRAGMENT = `(?:${SECRET_NAME_FRAGMENTS.join('|')})`;
const SECRET_NAME = new RegExp(NAME_FRAGMENT, 'i');

/**
 * A JWT in compact form (JWS: three base64url segments; JWE: five), its first segment a JSON object
 * (`{"` is `eyJ` in base64url).
 */
const JWT = String.raw`eyJ[\w-]+\.[\w-]+\.[\w-]*(?:\.[\w-]*\.[\w-]*)?`;
/**
 * 40 hex digits as a word of their own: a Gitea access token. A SHA-1 written in hex is masked
 * alike: no route of either service takes one, and the ids the services make are UUIDs and numbers.
 */
const HEX_40 = String.raw`\b[0-9A-Fa-f]{40}\b`;
const CREDENTIAL_SHAPES = new RegExp(`${JWT}|${HEX_40}`, 'g');
const CREDENTIAL_SHAPE = new RegExp(`${JWT}|${HEX_40}`);

/** Whether `name` (a header, query parameter or field name) says its value is a credential. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Whether `text` holds something shaped like a credential. */
export function hasCredentialShape(text: string): boolean {
  return CREDENTIAL_SHAPE.test(text);
}

/** `text` with each credential-shaped part replaced. */
function withoutCredentialShapes(text: string): string {
  return text.replace(CREDENTIAL_SHAPES, REDACTED);
}

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    // A malformed escape: judge the name as sent.
    return raw;
  }
}

/** A query parameter name (as sent, percent-encoded or not) that says its value is a credential. */
export function isSecretQueryParameter(name: string): boolean {
  return SECRET_NAME.test(name) || (name.includes('%') && SECRET_NAME.test(decodedName(name)));
}

/** `scheme://user:password@` in an absolute URL (a request target in absolute form, a database URL). */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/?#\s"@]*@/gi;

/** A query string (without its `?`) with the value of each credential parameter replaced. */
export function redactedQueryString(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return isSecretQueryParameter(name) ? `${name}=${REDACTED}` : withoutCredentialShapes(pair);
    })
    .join('&');
}

/**
 * `url` with its user information, each credential-shaped part of its path and the value of each
 * credential parameter of its query replaced; the rest kept as sent.
 */
export function redactedUrl(url: string): string {
  const withoutUserinfo = url.includes('@') ? url.replace(URL_USERINFO, `$1${REDACTED}@`) : url;
  const queryStart = withoutUserinfo.indexOf('?');
  if (queryStart < 0) return withoutCredentialShapes(withoutUserinfo);
  const path = withoutCredentialShapes(withoutUserinfo.slice(0, queryStart));
  return `${path}?${redactedQueryString(withoutUserinfo.slice(queryStart + 1))}`;
}

/** A parsed value (a query or path parameter, a header) with its credential-shaped parts replaced. */
function valueWithoutCredentials(value: unknown): unknown {
  if (typeof value === 'string') return withoutCredentialShapes(value);
  if (Array.isArray(value)) return value.map(valueWithoutCredentials);
  return value;
}

/** Query parameters, path parameters or headers by name: each credential masked. */
function redactedEntries(entries: unknown, isSecret: (name: string) => boolean): unknown {
  if (typeof entries !== 'object' || entries === null) return entries;
  const redacted: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(entries)) {
    redacted[name] = isSecret(name) ? REDACTED : valueWithoutCredentials(value);
  }
  return redacted;
}

const noName = () => false;

export interface SerializedRequest {
  url?: string;
  query?: unknown;
  params?: unknown;
  headers?: unknown;
  [field: string]: unknown;
}

/**
 * The access log's `req` serializer: pino's standard serialization of a request with the
 * credentials of its URL, query, path parameters and headers replaced.
 */
export function redactedRequest(req: SerializedRequest): SerializedRequest {
  const redacted: SerializedRequest = { ...req };
  if (req.url !== undefined) redacted.url = redactedUrl(req.url);
  if ('query' in req) redacted.query = redactedEntries(req.query, isSecretQueryParameter);
  if ('params' in req) redacted.params = redactedEntries(req.params, noName);
  if ('headers' in req) redacted.headers = redactedEntries(req.headers, isSecretName);
  return redacted;
}

/**
 * Last line of defence, on the serialized line (and on every text of a span): credentials are
 * masked even where no serializer could name them (an error message quoting a URL or a header, a
 * nested object, a path logged on its own).
 */
const SECRET_PATTERNS: { pattern: RegExp; replacement: string; only?: string }[] = [
  // Tried only on a text with a URL in it: the pattern costs as much as all the others together.
  { pattern: URL_USERINFO, replacement: `$1${REDACTED}@`, only: '://' },
  // A credential parameter in a URL.
  {
    pattern: new RegExp(`([?&][^=&"\\s#]*${NAME_FRAGMENT}[^=&"\\s#]*=)[^&"\\s#]*`, 'gi'),
    replacement: `$1${REDACTED}`,
  },
  // An Authorization header's scheme and credentials, quoted.
  { pattern: /\b(Bearer|Basic|token)\s+[\w\-.~+/=]{8,}/g, replacement: `$1 ${REDACTED}` },
  // A JSON field named like a credential: its string, number, literal, or flat array or object.
  {
    pattern: new RegExp(
      String.raw`([{,]"[\w.$-]*?${NAME_FRAGMENT}[\w.$-]*":)(?:"(?:[^"\\]|\\.)*"|\[[^[\]]*\]|\{[^{}]*\}|[\w.+-]+)`,
      'gi',
    ),
    replacement: `$1"${REDACTED}"`,
  },
  { pattern: CREDENTIAL_SHAPES, replacement: REDACTED },
];

/** A serialized log line (or any text of a span) with every credential masked. */
export function scrubbed(line: string): string {
  let text = line;
  for (const { pattern, replacement, only } of SECRET_PATTERNS) {
    if (only === undefined || text.includes(only)) text = text.replace(pattern, replacement);
  }
  return text;
}
