// Generated from apps/project-service/src/log-secrets.ts by `npm run sync:copies`: edit that file, not this copy.
/**
 * What never reaches a log line: the request headers, query parameters, URL parts and body fields
 * that carry credentials. The one definition every logger of the service uses: the base logger's
 * redaction and last-line scrub (logger.ts) and the access log's request serializer (http/app.ts).
 * Copied to every app (scripts/sync-copies.mjs) with every app's credentials on purpose: a credential
 * either service accepts is masked by both.
 *
 * `Sudo` (header or query, code-hosting-api) names the user an administrator acts as: a user name,
 * not a credential, so it stays readable.
 */

/** Request headers whose value is a credential, lower-case as Node gives them. */
export const SECRET_REQUEST_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
  'x-auth-token',
  'x-access-token',
  'x-gitea-otp',
] as const;

/** Response headers whose value is a credential. */
export const SECRET_RESPONSE_HEADERS = ['set-cookie'] as const;

/** Body and log fields whose value is a credential, wherever they appear in a line. */
export const SECRET_FIELDS = ['password', 'token', 'access_token', 'secret'] as const;

/**
 * Query parameter names that may carry a credential, matched on the decoded, lower-cased name:
 * `token` and `access_token` (read by code-hosting-api), and whatever a client may put there
 * whether or not the service reads it (`api_key`, `client_secret`, `password`, …).
 */
const SECRET_PARAMETER = /token|secret|passw|api[-_]?key|auth|jwt|signature|session|credential/;

export const REDACTED = '[redacted]';

/** pino `redact` paths: the secret headers of a serialized request or response, and secret fields. */
export const REDACTED_PATHS = [
  ...SECRET_REQUEST_HEADERS.map((name) => `req.headers["${name}"]`),
  ...SECRET_RESPONSE_HEADERS.map((name) => `res.headers["${name}"]`),
  ...SECRET_FIELDS.map((name) => `*.${name}`),
];

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    // A malformed escape: judge the name as sent.
    return raw.toLowerCase();
  }
}

export function isSecretQueryParameter(name: string): boolean {
  return SECRET_PARAMETER.test(decodedName(name));
}

/** `scheme://user:password@` in an absolute URL (a request target in absolute form, a database URL). */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/?#\s"@]*@/gi;

/**
 * `url` with its user information and the value of every credential-like query parameter
 * replaced; the rest kept as sent.
 */
export function redactedUrl(url: string): string {
  const withoutUserinfo = url.replace(URL_USERINFO, `$1${REDACTED}@`);
  const queryStart = withoutUserinfo.indexOf('?');
  if (queryStart < 0) return withoutUserinfo;
  const pairs = withoutUserinfo
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return isSecretQueryParameter(name) ? `${name}=${REDACTED}` : pair;
    });
  return `${withoutUserinfo.slice(0, queryStart)}?${pairs.join('&')}`;
}

function redactedQuery(query: unknown): unknown {
  if (typeof query !== 'object' || query === null) return query;
  return Object.fromEntries(
    Object.entries(query).map(([name, value]) => [name, isSecretQueryParameter(name) ? REDACTED : value]),
  );
}

function redactedHeaders(headers: unknown): unknown {
  if (typeof headers !== 'object' || headers === null) return headers;
  const secret: readonly string[] = SECRET_REQUEST_HEADERS;
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      secret.includes(name.toLowerCase()) ? REDACTED : value,
    ]),
  );
}

export interface SerializedRequest {
  url?: string;
  query?: unknown;
  headers?: unknown;
  [field: string]: unknown;
}

/**
 * The access log's `req` serializer: pino's standard serialization of a request with the
 * credentials of its URL, query and headers replaced.
 */
export function redactedRequest(req: SerializedRequest): SerializedRequest {
  const redacted: SerializedRequest = { ...req };
  if (req.url !== undefined) redacted.url = redactedUrl(req.url);
  if ('query' in req) redacted.query = redactedQuery(req.query);
  if ('headers' in req) redacted.headers = redactedHeaders(req.headers);
  return redacted;
}

const QUOTED_NAMES = [...SECRET_REQUEST_HEADERS, ...SECRET_RESPONSE_HEADERS, ...SECRET_FIELDS].join('|');

/**
 * Last line of defence, on the serialized line: credentials are masked even where a field path
 * could not name them (an error message quoting a URL or a header, a nested object).
 */
const SECRET_PATTERNS: [RegExp, string][] = [
  [URL_USERINFO, `$1${REDACTED}@`],
  [
    /([?&][^=&"\s#]*(?:token|secret|passw|api[-_]?key|auth|jwt|signature|session|credential)[^=&"\s#]*=)[^&"\s#]*/gi,
    `$1${REDACTED}`,
  ],
  [/\b(Bearer|Basic|token)\s+[\w\-.~+/=]{8,}/g, `$1 ${REDACTED}`],
  [new RegExp(`("(?:${QUOTED_NAMES})":)"(?:[^"\\\\]|\\\\.)*"`, 'gi'), `$1"${REDACTED}"`],
];

/** A serialized log line with every credential pattern masked. */
export function scrubbed(line: string): string {
  return SECRET_PATTERNS.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), line);
}
