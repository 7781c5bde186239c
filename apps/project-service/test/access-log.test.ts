import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { useTestApp } from '@repo/testing';
import pino from 'pino';
import { connectPrisma } from '../src/db/database';
import { redactedUrl } from '../src/log-secrets';
import { createLogger } from '../src/logger';
import { composeApp } from '../src/compose';
import { ADMIN_PRINCIPAL, bearer, testAuthConfig } from './app';

// Every line the app logs during this file, as pino writes it.
const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(chunk.toString('utf8'));
    done();
  },
});

const service = useTestApp(async (source) => {
  const database = connectPrisma(source);
  const app = composeApp({ database, logger: pino({ level: 'info' }, capture), auth: testAuthConfig });
  return { app, close: () => database.close() };
});

const SECRETS = ['query-secret-1', 'query-secret-2', 'query-secret-3', 'query-secret-4'];

describe('the access log', () => {
  it('keeps credentials sent in the query string out of every log line', async () => {
    await service.request
      .get(`/projects?slug=root&access_token=${SECRETS[0]}`)
      .set('Authorization', bearer(ADMIN_PRINCIPAL))
      .expect(200);
    // Refused requests are logged by the error handler too.
    await service.request.get(`/projects?token=${SECRETS[1]}`).expect(401);
    // Percent-encoded names are what Express decodes them to: access_token, api_key.
    await service.request
      .get(`/projects?access%5Ftoken=${SECRETS[2]}&api_key=${SECRETS[3]}`)
      .set('Authorization', bearer(ADMIN_PRINCIPAL))
      .expect(200);
    const log = lines.join('');
    for (const secret of SECRETS) expect(log).not.toContain(secret);
    const entries = lines.map((line) => JSON.parse(line) as { req?: { url?: string; query?: unknown } });
    const urls = entries.flatMap((entry) => (entry.req?.url ? [entry.req.url] : []));
    expect(urls).toContain('/projects?slug=root&access_token=[redacted]');
    const queries = entries.flatMap((entry) => (entry.req?.query ? [entry.req.query] : []));
    expect(queries).toContainEqual({ slug: 'root', access_token: '[redacted]' });
  });

  it('writes one line per request, with the id it answered with, and none for the probes', async () => {
    const id = `access-log-${randomUUID()}`;
    await service.request
      .get('/projects?slug=root')
      .set('Authorization', bearer(ADMIN_PRINCIPAL))
      .set('X-Request-Id', id)
      .expect('X-Request-Id', id)
      .expect(200);
    await service.request.get('/readyz').set('X-Request-Id', `${id}-probe`).expect(200);
    type Line = {
      msg?: string;
      req?: { id?: string; url?: string };
      res?: { statusCode?: number };
      responseTime?: unknown;
    };
    const entries = lines.map((line) => JSON.parse(line) as Line);
    const mine = entries.filter((entry) => entry.req?.id === id);
    expect(mine).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        res: expect.objectContaining({ statusCode: 200 }),
        responseTime: expect.any(Number),
      }),
    ]);
    expect(entries.filter((entry) => entry.req?.id?.startsWith(`${id}-probe`))).toEqual([]);
  });
});

// The service's own logger, as main.ts makes it: its lines name their request without a request
// context (none is kept with events off: request-context.ts).
const serviceLines: string[] = [];
const serviceLog = new Writable({
  write(chunk: Buffer, _encoding, done) {
    serviceLines.push(chunk.toString('utf8'));
    done();
  },
});
const logged = useTestApp(async (source) => {
  const database = connectPrisma(source);
  const app = composeApp({ database, logger: createLogger('info', serviceLog), auth: testAuthConfig });
  return { app, close: () => database.close() };
});

describe("the service's log lines", () => {
  it('each carry the id of their request, whoever writes them', async () => {
    const id = `every-line-${randomUUID()}`;
    // Refused: the error handler's line (the request's logger), then the access line.
    await logged.request.get('/projects?slug=root').set('X-Request-Id', id).expect(401);
    type Line = { msg?: string; request_id?: string; req?: { id?: string } };
    const mine = serviceLines.map((line) => JSON.parse(line) as Line).filter((line) => line.req?.id === id);
    expect(mine.map((line) => line.msg)).toEqual(['request rejected', 'request completed']);
    expect(mine.map((line) => line.request_id)).toEqual([id, id]);
    // Named once per line: no duplicate key.
    for (const line of serviceLines.filter((text) => text.includes(id))) {
      expect(line.split('"request_id"').length).toBe(2);
    }
  });
});

// eslint-disable-next-line no-control-regex
const COLOURS = /\u001b\[[0-9;]*m/g;

// LOG_FORMAT=pretty, as on a terminal: what a person reads, colours removed.
function terminal(level: string) {
  const printed: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      printed.push(...chunk.toString('utf8').replace(COLOURS, '').split('\n').filter(Boolean));
      done();
    },
  });
  const app = useTestApp(async (source) => {
    const database = connectPrisma(source);
    const logger = createLogger(level, 'pretty', out);
    return { app: composeApp({ database, logger, auth: testAuthConfig }), close: () => database.close() };
  });
  return { app, printed };
}

const pretty = terminal('info');
const prettyWarn = terminal('warn');

describe('on a terminal', () => {
  it('prints one readable line per request, a refused one with the message the client got', async () => {
    const slug = `pretty-${randomUUID()}`;
    await pretty.app.request
      .get(`/projects?slug=${slug}`)
      .set('Authorization', bearer(ADMIN_PRINCIPAL))
      .expect(200);
    await pretty.app.request.get(`/projects?slug=${slug}-refused`).expect(401);
    const mine = pretty.printed.filter((line) => line.includes(slug) || line.includes('rejected'));
    expect(mine).toEqual([
      expect.stringMatching(new RegExp(`INFO: GET /projects\\?slug=${slug} 200 \\d+ms$`)),
      expect.stringMatching(
        new RegExp(`INFO: GET /projects\\?slug=${slug}-refused 401 \\d+ms: missing Authorization header$`),
      ),
    ]);
  });

  it('above info, prints a refusal alone, as readably', async () => {
    await prettyWarn.app.request.get('/projects/not-a-project').expect(401);
    expect(prettyWarn.printed).toEqual([
      expect.stringMatching(/WARN: GET \/projects\/not-a-project 401: missing Authorization header$/),
    ]);
  });
});

describe('redactedUrl', () => {
  it.each([
    ['/projects', '/projects'],
    ['/projects?slug=a&page_size=2', '/projects?slug=a&page_size=2'],
    ['/projects?access_token=x', '/projects?access_token=[redacted]'],
    ['/projects?ACCESS_TOKEN=x&slug=a', '/projects?ACCESS_TOKEN=[redacted]&slug=a'],
    [
      '/p?id_token=x&password=y&client_secret=z',
      '/p?id_token=[redacted]&password=[redacted]&client_secret=[redacted]',
    ],
    ['/p?jwt', '/p?jwt=[redacted]'],
    ['/p?%ZZtoken=x', '/p?%ZZtoken=[redacted]'],
    ['/p?page_token=abc', '/p?page_token=[redacted]'],
    // By shape: a JWT or 40 hex digits, under any name or as a path segment; the rest kept.
    ['/projects/eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.sig/children?a=1', '/projects/[redacted]/children?a=1'],
    ['/p?x=eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.&y=1', '/p?x=[redacted]&y=1'],
    [`/api/v1/orgs/${'0a'.repeat(20)}`, '/api/v1/orgs/[redacted]'],
    [`/p?x=${'AF'.repeat(20)}&y=1`, '/p?x=[redacted]&y=1'],
    // Not credential-shaped: kept.
    ['/projects/0d5f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b', '/projects/0d5f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b'],
    [`/p/${'a'.repeat(39)}/${'b'.repeat(41)}`, `/p/${'a'.repeat(39)}/${'b'.repeat(41)}`],
    ['/swagger.v1.json?v=1.2.3', '/swagger.v1.json?v=1.2.3'],
    ['/p/eyJhbGciOiJub25lIn0.only-two', '/p/eyJhbGciOiJub25lIn0.only-two'],
  ])('%s → %s', (url, expected) => {
    expect(redactedUrl(url)).toBe(expected);
  });
});
