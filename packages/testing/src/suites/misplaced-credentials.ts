import { rawHttp, type RawResponse } from '../raw-http';
import { credentialLeaks } from './log-secrets';

// Credentials sent where the service does not read them, as a misconfigured client sends them: in
// a query parameter or a header of any name, or as a path segment. Whatever the place, a value
// shaped like a credential (a JWT, a 40-hex access token) is masked, and so is the value of every
// header and query parameter whose name says it holds one. The rest of the request stays readable.

/** What an app gives the suite: its own credentials and a path it routes. */
export interface MisplacedCredentials {
  /** A JWT: one the service accepts when it takes JWTs, else any well-formed one. */
  jwt: string;
  /** 40 hex digits: an access token the service accepts when it has such tokens, else random ones. */
  hexToken: string;
  /** A path the app routes whose next segment names one item: `/projects`, `/api/v1/orgs`. */
  collection: string;
  /** Headers every request carries (how it authenticates). */
  headers: [string, string][];
}

export interface MisplacedRequest {
  /** The request target as sent. */
  path: string;
  headers: [string, string][];
  /** Its X-Request-Id (not credential-shaped): kept, and on every line of the request. */
  requestId: string;
  /** Its URL in the access log and in its span: the request target with each credential masked. */
  loggedUrl: string;
  /** The headers sent with a credential in them (lower-case name), as logged: the credential masked. */
  loggedHeaders: Record<string, string>;
}

/** The fragments of a name that say its value is a credential, whatever the rest of the name. */
export const CREDENTIAL_NAME_FRAGMENTS = [
  'token',
  'secret',
  'key',
  'auth',
  'session',
  'csrf',
  'signature',
  'password',
] as const;

const REDACTED = '[redacted]';

/** A header sent with every request, named like none of the fragments: logged as sent. */
export const PLAIN_HEADER: [string, string] = ['X-Client-Color', 'teal-plain-header'];

/**
 * The batch of requests, and every secret they carry by name. Each request's `case` query
 * parameter (a neighbour that is no credential) tells its span apart.
 */
export function misplacedCredentialRequests(credentials: MisplacedCredentials): {
  requests: MisplacedRequest[];
  secrets: Record<string, string>;
} {
  const { jwt, hexToken, collection } = credentials;
  const secrets: Record<string, string> = { jwt, hexToken };
  const requests: MisplacedRequest[] = [];
  const add = (
    target: string,
    logged: string,
    extraHeaders: [string, string][] = [],
    loggedHeaders: Record<string, string> = {},
  ) => {
    const n = requests.length + 1;
    const neighbour = `case=${n}`;
    const join = (path: string) => `${path}${path.includes('?') ? '&' : '?'}${neighbour}`;
    requests.push({
      path: join(target),
      headers: [...credentials.headers, PLAIN_HEADER, ['X-Request-Id', `misplaced-${n}`], ...extraHeaders],
      requestId: `misplaced-${n}`,
      loggedUrl: join(logged),
      loggedHeaders,
    });
  };

  // Shaped like a credential, under a name that says nothing.
  add(`${collection}?bearer=${jwt}`, `${collection}?bearer=${REDACTED}`);
  add(`${collection}?x=${jwt}`, `${collection}?x=${REDACTED}`);
  add(`${collection}?x=${hexToken}`, `${collection}?x=${REDACTED}`);
  add(`${collection}/${jwt}`, `${collection}/${REDACTED}`);
  add(`${collection}/${hexToken}`, `${collection}/${REDACTED}`);
  add(`${collection}/${hexToken}/members`, `${collection}/${REDACTED}/members`);
  add(collection, collection, [['X-Client-Context', jwt]], { 'x-client-context': REDACTED });
  add(collection, collection, [['X-Client-Context', `Bearer ${hexToken}`]], {
    'x-client-context': `Bearer ${REDACTED}`,
  });
  // Named like a credential, whatever the value's shape.
  add(collection, collection, [['X-Token', jwt]], { 'x-token': REDACTED });
  secrets['amzSecurityToken'] = 'amz-security-token-misplaced-0001';
  add(collection, collection, [['X-Amz-Security-Token', secrets['amzSecurityToken']]], {
    'x-amz-security-token': REDACTED,
  });
  secrets['csrfToken'] = 'csrf-token-misplaced-0002';
  add(collection, collection, [['X-Csrf-Token', secrets['csrfToken']]], { 'x-csrf-token': REDACTED });
  for (const fragment of CREDENTIAL_NAME_FRAGMENTS) {
    const header = `X-Example-${fragment[0]!.toUpperCase()}${fragment.slice(1)}`;
    secrets[`header ${fragment}`] = `misplaced-header-${fragment}-value`;
    add(collection, collection, [[header, secrets[`header ${fragment}`]!]], {
      [header.toLowerCase()]: REDACTED,
    });
    secrets[`query ${fragment}`] = `misplaced-query-${fragment}-value`;
    add(
      `${collection}?my_${fragment}_param=${secrets[`query ${fragment}`]}`,
      `${collection}?my_${fragment}_param=${REDACTED}`,
    );
  }
  return { requests, secrets };
}

/** Sends the batch to the service at `baseUrl`, one request at a time. */
export async function sendMisplacedCredentials(baseUrl: string, requests: MisplacedRequest[]): Promise<void> {
  for (const request of requests) {
    await rawHttp(baseUrl, { method: 'GET', path: request.path, headers: request.headers });
  }
}

/**
 * A request whose X-Request-Id is itself shaped like a credential: the service does not keep it
 * (it would be masked on every line of the request) and names the request itself.
 */
export function credentialShapedRequestId(
  baseUrl: string,
  credentials: MisplacedCredentials,
): Promise<RawResponse> {
  return rawHttp(baseUrl, {
    method: 'GET',
    path: credentials.collection,
    headers: [...credentials.headers, ['X-Request-Id', credentials.hexToken]],
  });
}

/** The access lines (JSON, with `res`) of `lines`, by request id. */
function accessLines(lines: readonly string[]): Map<string, Record<string, unknown>> {
  const found = new Map<string, Record<string, unknown>>();
  for (const line of lines) {
    if (!line.startsWith('{')) continue;
    const parsed = JSON.parse(line) as Record<string, unknown>;
    if (parsed['res'] !== undefined && typeof parsed['request_id'] === 'string') {
      found.set(parsed['request_id'], parsed);
    }
  }
  return found;
}

export interface MisplacedCredentialLogsOptions {
  /** Where the app is reached (the harness's server). */
  baseUrl(): string;
  credentials(): Promise<MisplacedCredentials>;
  /** Every line the app's logger has written so far (at trace level). */
  lines: readonly string[];
  /** Whether the access line carries the request's headers (project-service) or not (code-hosting-api). */
  headersLogged: boolean;
}

/** Credentials sent where the service does not read them never reach a log line. */
export function describeMisplacedCredentialLogs(options: MisplacedCredentialLogsOptions): void {
  describe('credentials sent where the service does not read them', () => {
    it('are masked in every log line by shape and by name; the rest of each request stays', async () => {
      const credentials = await options.credentials();
      const { requests, secrets } = misplacedCredentialRequests(credentials);
      await sendMisplacedCredentials(options.baseUrl(), requests);
      const shapedId = await credentialShapedRequestId(options.baseUrl(), credentials);
      const ownId = shapedId.headers['x-request-id'] ?? '(none)';
      const ids = [...requests.map((request) => request.requestId), ownId];

      const deadline = Date.now() + 10_000;
      let logged = accessLines(options.lines);
      while (ids.some((id) => !logged.has(id)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        logged = accessLines(options.lines);
      }
      const written = options.lines.join('\n');
      expect(credentialLeaks(written, secrets)).toEqual([]);

      // Each request's access line: its id, its URL with only the credential masked, its headers.
      const seen = requests.map((request) => {
        const req = logged.get(request.requestId)?.['req'] as
          { url?: string; headers?: Record<string, string> } | undefined;
        const headers = options.headersLogged
          ? {
              plain: req?.headers?.[PLAIN_HEADER[0].toLowerCase()],
              credentials: Object.fromEntries(
                Object.keys(request.loggedHeaders).map((name) => [name, req?.headers?.[name]]),
              ),
            }
          : {};
        return { url: req?.url, ...headers };
      });
      expect(seen).toEqual(
        requests.map((request) => ({
          url: request.loggedUrl,
          ...(options.headersLogged ? { plain: PLAIN_HEADER[1], credentials: request.loggedHeaders } : {}),
        })),
      );

      // The error handler's line of a request it rejects names the path, masked alike.
      const rejected = options.lines
        .filter((line) => line.includes('"request rejected"'))
        .map((line) => JSON.parse(line) as { request_id?: string; path?: string });
      const credentialPaths = requests.filter((request) =>
        request.path.startsWith(`${credentials.collection}/`),
      );
      expect(
        credentialPaths.map(
          (request) => rejected.find((line) => line.request_id === request.requestId)?.path,
        ),
      ).toEqual(credentialPaths.map((request) => request.loggedUrl.split('?')[0]));

      // A credential-shaped X-Request-Id is replaced by an id of the service's own, on every line.
      expect(ownId).not.toBe(credentials.hexToken);
      expect(logged.has(ownId)).toBe(true);
    });
  });
}

/** `attributes` of an OTLP/JSON span as a plain record of their string values. */
function stringAttributes(span: { attributes?: { key: string; value: { stringValue?: string } }[] }) {
  return Object.fromEntries((span.attributes ?? []).map(({ key, value }) => [key, value.stringValue]));
}

/** The `url.path` + `?` + `url.query` of every server span in OTLP/JSON export bodies. */
export function exportedServerUrls(bodies: readonly string[]): string[] {
  const urls: string[] = [];
  for (const body of bodies) {
    const parsed = JSON.parse(body) as {
      resourceSpans?: { scopeSpans?: { spans?: { kind?: number; attributes?: [] }[] }[] }[];
    };
    for (const resource of parsed.resourceSpans ?? []) {
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          // SPAN_KIND_SERVER
          if (span.kind !== 2) continue;
          const attributes = stringAttributes(span);
          const path = attributes['url.path'];
          if (path === undefined) continue;
          const query = attributes['url.query'];
          urls.push(query === undefined ? path : `${path}?${query}`);
        }
      }
    }
  }
  return urls;
}
