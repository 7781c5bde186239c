import type { Test } from 'supertest';
import { OPENAPI_DOCUMENT_PATH } from '../src/http/openapi-route';
import { useProjectService } from './app';
import { admin, createProject, rootUid } from './project-fixtures';

// Every path and query parameter of every operation, walked from the OpenAPI document the route
// table generates, given values no column can hold: the answer is a 400 naming the parameter (or
// the 404 of a read whose uid names nothing), never the database's refusal nor a 500.
const service = useProjectService();

/** What the database's refusals become (packages/http-errors): for what nobody foresaw, never for a parameter. */
const DATABASE_REFUSALS = [
  'request contains a value the database does not accept',
  'request contains a NUL character (U+0000), which is not accepted',
];

/** Past int64 either way, int64's largest, past int4, and sizes no page has. */
const INTEGERS = [
  '99999999999999999999999',
  '-9223372036854775809',
  '9223372036854775807',
  '2147483648',
  '-1',
  '0',
];
/** Text no column holds. */
const NUL = 'a\u0000b';

/** A page token as the service encodes one (page-token.ts), around what no column holds. */
function pageToken(name: string, uid: string): string {
  return Buffer.from(JSON.stringify([name, uid]), 'utf8').toString('base64url');
}
const PAGE_TOKENS = [
  pageToken(NUL, '00000000-0000-4000-8000-000000000000'),
  pageToken('a', `00000000-0000-4000-8000-00000000000${'\u0000'}`),
  pageToken('a', 'not-a-uuid'),
];

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
}
interface Operation {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  parameters: Parameter[];
  body: boolean;
}

describe('parameters out of the range their column holds', () => {
  let all: Operation[];
  let root: string;
  let project: { uid: string; slug: string };
  beforeAll(async () => {
    const document = (await service.request.get(OPENAPI_DOCUMENT_PATH).expect(200)).body as {
      paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: unknown }>>;
    };
    all = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method as Operation['method'],
        path,
        parameters: (operation.parameters ?? []).filter((parameter) => parameter.in !== 'header'),
        body: operation.requestBody !== undefined,
      })),
    );
    root = await rootUid(service);
    project = await createProject(service, { parent_uid: root });
  });

  /** The operation with every parameter valid but `walked`, which gets `value`, and a valid body. */
  function request(operation: Operation, walked: Parameter, value: string): Test {
    const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(walked.in === 'path' && name === walked.name ? value : project.uid),
    );
    const sent = service.request[operation.method](path).set('Authorization', admin());
    if (walked.in === 'query') sent.query({ [walked.name]: value });
    if (!operation.body) return sent;
    // A create whose every field is valid but its slug, taken: nothing is created if it gets that far.
    return sent.send({ slug: project.slug, name: 'n', description: 'd', parent_uid: root });
  }

  it('walks every parameter of the seven operations', () => {
    expect(all).toHaveLength(7);
    expect(all.flatMap((operation) => operation.parameters)).toHaveLength(19);
  });

  it('no parameter value reaches a database that cannot hold it: never 500, never its refusal', async () => {
    const answers: string[] = [];
    for (const operation of all) {
      for (const parameter of operation.parameters) {
        const values = [...INTEGERS, NUL, ...(parameter.name === 'page_token' ? PAGE_TOKENS : [])];
        await Promise.all(
          values.map(async (value) => {
            const response = await request(operation, parameter, value);
            const message = String((response.body as { message?: unknown }).message);
            if (response.status >= 500 || DATABASE_REFUSALS.includes(message)) {
              const where = `${operation.method.toUpperCase()} ${operation.path} ${parameter.in} ${parameter.name}`;
              answers.push(`${where}=${JSON.stringify(value)}: ${response.status} ${message}`);
            }
          }),
        );
      }
    }
    expect(answers).toEqual([]);
  }, 120_000);

  it.each([
    ['slug', NUL, 'slug: must not contain NUL (U+0000)'],
    ['page_token', PAGE_TOKENS[0]!, 'page_token: is not a token this service issued'],
    ['page_size', '99999999999999999999999', 'page_size: must be at most 1000'],
  ])('a list filtered by %s %j: 400 naming it', async (name, value, message) => {
    const response = await service.request
      .get('/projects')
      .query({ [name]: value })
      .set('Authorization', admin());
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: { code: '400', message },
    });
  });
});
