import { OPENAPI_DOCUMENT_PATH } from '../src/http/openapi-route';
import { useProjectService } from './app';
import { admin, createProject, rootUid } from './project-fixtures';

// Every query parameter of every operation takes one value: given twice, or with brackets
// (`public[]`, `page_size[a]`), it is a 400 naming it, never a value picked or a filter dropped.
// Walked over the OpenAPI document the route table generates.
const service = useProjectService();

interface QueryParameter {
  name: string;
  schema: { enum?: string[] };
}
interface Operation {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  query: QueryParameter[];
}

describe('repeated and bracketed query parameters', () => {
  let operations: Operation[];
  let uid: string;
  let valid: Record<string, string>;
  beforeAll(async () => {
    const document = (await service.request.get(OPENAPI_DOCUMENT_PATH).expect(200)).body as {
      paths: Record<string, Record<string, { parameters?: (QueryParameter & { in: string })[] }>>;
    };
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method as Operation['method'],
        path,
        query: (operation.parameters ?? []).filter((parameter) => parameter.in === 'query'),
      })),
    );
    const root = await rootUid(service);
    uid = (await createProject(service, { parent_uid: root })).uid;
    await createProject(service, { parent_uid: root });
    const page = await service.request
      .get('/projects')
      .query({ page_size: '1' })
      .set('Authorization', admin())
      .expect(200);
    valid = {
      v: '1',
      page_size: '2',
      page_token: page.body.next_page_token as string,
      parent_uid: root,
      slug: 'root',
      public: 'true',
    };
  });

  /** A value each parameter accepts alone: the refusal is about the repetition, not the value. */
  function value(parameter: QueryParameter): string {
    const known = valid[parameter.name] ?? parameter.schema.enum?.[0];
    if (known === undefined) throw new Error(`no valid value for ${parameter.name}`);
    return known;
  }

  it('knows every query parameter, and each is accepted given once', async () => {
    const list = operations.find(
      (operation) => operation.method === 'get' && operation.path === '/projects',
    )!;
    expect(list.query.map((parameter) => parameter.name).sort()).toEqual(
      ['category', 'page_size', 'page_token', 'parent_uid', 'public', 'slug', 'stage', 'v'].sort(),
    );
    for (const parameter of list.query) {
      await service.request
        .get('/projects')
        .query({ [parameter.name]: value(parameter) })
        .set('Authorization', admin())
        .expect(200);
    }
  });

  it('a parameter given twice or with brackets is a 400 naming it, on every operation', async () => {
    const answers: unknown[] = [];
    const expected: unknown[] = [];
    for (const operation of operations) {
      const path = operation.path.replace('{uid}', uid);
      for (const parameter of operation.query) {
        const { name } = parameter;
        const given = encodeURIComponent(value(parameter));
        for (const [query, message] of [
          [`${name}=${given}&${name}=${given}`, `${name}: must be given at most once`],
          [`${name}[]=${given}`, `${name}: must be given as ${name}=<value>, not ${name}[]`],
          [`${name}[a]=${given}`, `${name}: must be given as ${name}=<value>, not ${name}[a]`],
          [`${name}[]=${given}&${name}=${given}`, `${name}: must be given as ${name}=<value>, not ${name}[]`],
        ]) {
          const response = await service.request[operation.method](`${path}?${query}`).set(
            'Authorization',
            admin(),
          );
          const where = `${operation.method.toUpperCase()} ${operation.path}?${query}`;
          answers.push({ where, status: response.status, body: response.body as unknown });
          expected.push({ where, status: 400, body: { code: '400', message } });
        }
      }
    }
    expect(answers).toEqual(expected);
    // Nothing was deleted on the way.
    await service.request.get(`/projects/${uid}`).set('Authorization', admin()).expect(200);
  }, 120_000);

  it('a parameter no operation declares is ignored, repeated or bracketed alike', async () => {
    await service.request
      .get('/projects?unknown=1&unknown=2&other[]=3')
      .set('Authorization', admin())
      .expect(200);
  });
});
