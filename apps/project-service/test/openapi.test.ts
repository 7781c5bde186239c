import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { bearer, useProjectService } from './app';
import { admin, createProject, rootUid } from './project-fixtures';

const service = useProjectService();

interface OpenApiDocument {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      { operationId: string; responses: Record<string, { content?: Record<string, { schema: object }> }> }
    >
  >;
  components: { schemas: Record<string, object> };
}

let document: OpenApiDocument;
let ajv: Ajv2020;
let root: string;

beforeAll(async () => {
  const response = await service.request.get('/_projects/openapi3.json').expect(200);
  document = response.body as OpenApiDocument;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // Register the components so $ref: '#/components/schemas/X' resolves.
  ajv.addSchema({ $id: 'openapi', components: document.components });
  root = await rootUid(service);
});

/** Validates a real response against the schema the document declares for it. */
function expectMatchesDocument(path: string, method: string, response: { status: number; body: unknown }) {
  const operation = document.paths[path]?.[method];
  if (!operation) throw new Error(`no operation ${method} ${path} in the document`);
  const declared = operation.responses[String(response.status)];
  if (!declared) throw new Error(`${method} ${path} does not declare status ${response.status}`);
  const schema = declared.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${method} ${path} ${response.status} has no JSON schema`);
  const rewritten = JSON.parse(JSON.stringify(schema).replace(/"#\/components/g, '"openapi#/components'));
  const validate = ajv.compile(rewritten);
  const valid = validate(response.body);
  expect({ valid, errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
}

describe('the served OpenAPI document', () => {
  it('is an OpenAPI 3 document with the seven operations of the contract', () => {
    expect(document.openapi).toMatch(/^3\./);
    const operationIds = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods).map((op) => op.operationId),
    );
    expect(operationIds.sort()).toEqual(
      [
        'create-project',
        'delete-project',
        'get-one-project-base',
        'get-one-project-settings',
        'get-projects',
        'update-project-base',
        'update-project-settings',
      ].sort(),
    );
  });

  it('declares the contract’s enum values, including Neutral-2 and Pre-NEUTRAL', () => {
    const text = JSON.stringify(document.components.schemas['ProjectFull']);
    for (const value of [
      'Neutral-2',
      'Pre-NEUTRAL',
      'Working Group',
      'Formation - Confidential',
      'Series LLC',
      'Alternate Funding',
    ]) {
      expect(text).toContain(`"${value}"`);
    }
  });

  it('describes every real response: create, get, update, settings, list and errors', async () => {
    const created = await service.request
      .post('/projects')
      .set('Authorization', admin())
      .send({
        slug: 'openapi-full',
        name: 'OpenAPI',
        description: 'd',
        parent_uid: root,
        charter_url: 'https://example.com/c',
        formation_date: '2020-01-01',
        category: 'Pre-NEUTRAL',
        funding_model: ['Membership'],
        writers: [{ username: 'w', email: 'w@example.com', avatar: 'https://example.com/a.png', name: 'W' }],
        auditors: [{ username: 'a' }],
      })
      .expect(201);
    expectMatchesDocument('/projects', 'post', created);
    const uid = created.body.uid as string;

    expectMatchesDocument(
      '/projects/{uid}',
      'get',
      await service.request.get(`/projects/${uid}`).set('Authorization', admin()),
    );
    expectMatchesDocument(
      '/projects/{uid}',
      'put',
      await service.request
        .put(`/projects/${uid}`)
        .set('Authorization', admin())
        .send({ slug: 'openapi-full', name: 'renamed', description: 'd', parent_uid: root }),
    );
    expectMatchesDocument(
      '/projects/{uid}/settings',
      'get',
      await service.request.get(`/projects/${uid}/settings`).set('Authorization', admin()),
    );
    expectMatchesDocument(
      '/projects/{uid}/settings',
      'put',
      await service.request
        .put(`/projects/${uid}/settings`)
        .set('Authorization', admin())
        .send({ mission_statement: 'm' }),
    );
    expectMatchesDocument(
      '/projects/{uid}',
      'get',
      await service.request.get(`/projects/${root}`).set('Authorization', admin()),
    );
    await createProject(service, { parent_uid: root });
    expectMatchesDocument(
      '/projects',
      'get',
      await service.request.get('/projects').set('Authorization', admin()),
    );
    expectMatchesDocument(
      '/projects',
      'get',
      await service.request.get('/projects').query({ page_size: 1 }).set('Authorization', admin()),
    );

    // Errors.
    expectMatchesDocument(
      '/projects',
      'post',
      await service.request.post('/projects').set('Authorization', admin()).send({ slug: 'X' }),
    );
    expectMatchesDocument('/projects', 'get', await service.request.get('/projects'));
    expectMatchesDocument(
      '/projects/{uid}',
      'get',
      await service.request.get(`/projects/${uid}`).set('Authorization', bearer('nobody')),
    );
    expectMatchesDocument(
      '/projects/{uid}',
      'put',
      await service.request
        .put(`/projects/${uid}`)
        .set('Authorization', admin())
        .set('If-Match', '"b0"')
        .send({ slug: 'openapi-full', name: 'n', description: 'd', parent_uid: root }),
    );
  });

  it('lets the validator fail: a response missing a field does not match', () => {
    const schema = JSON.parse(
      JSON.stringify(document.components.schemas['ProjectBase']).replace(
        /"#\/components/g,
        '"openapi#/components',
      ),
    );
    expect(ajv.validate(schema, { uid: 'x' })).toBe(false);
  });

  it('says which response fields are always present; the others are absent when unset, never ""', () => {
    const schemas = document.components.schemas as Record<
      string,
      { required?: string[]; properties: Record<string, unknown> }
    >;
    const always = [
      'autojoin_enabled',
      'created_at',
      'description',
      'is_foundation',
      'name',
      'public',
      'slug',
    ];
    expect(schemas['ProjectBase']?.required?.sort()).toEqual([...always, 'uid', 'updated_at'].sort());
    expect(schemas['ProjectFull']?.required?.sort()).toEqual([...always, 'uid', 'updated_at'].sort());
    expect(schemas['ProjectSettings']?.required?.sort()).toEqual(['created_at', 'uid', 'updated_at']);
    expect(schemas['UserInfo']?.required ?? []).toEqual([]);
    const base = JSON.parse(
      JSON.stringify(schemas['ProjectBase']).replace(/"#\/components/g, '"openapi#/components'),
    );
    const valid = {
      uid: '7cad5a8d-19d0-41a4-81a6-043453daf9ee',
      slug: 'a-project',
      name: 'A project',
      description: '',
      public: false,
      is_foundation: false,
      autojoin_enabled: false,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    };
    expect(ajv.validate(base, valid)).toBe(true);
    // What LFX's generated client refuses, the document refuses too.
    for (const field of [
      'parent_uid',
      'category',
      'stage',
      'charter_url',
      'formation_date',
      'legal_entity_name',
    ]) {
      expect({ field, valid: ajv.validate(base, { ...valid, [field]: '' }) }).toEqual({
        field,
        valid: false,
      });
    }
    expect(ajv.validate(base, { ...valid, funding_model: [] })).toBe(false);
  });
});

describe('media types', () => {
  it('lists JSON, XML and gob on every request body and every response with a body', () => {
    const everyType = ['application/json', 'application/xml', 'application/gob'];
    let bodies = 0;
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const withBody = operation as typeof operation & {
          requestBody?: { content: Record<string, object> };
        };
        const contents = [
          ...(withBody.requestBody ? [withBody.requestBody.content] : []),
          ...Object.values(operation.responses).flatMap((response) =>
            response.content ? [response.content] : [],
          ),
        ];
        for (const content of contents) {
          bodies += 1;
          expect({ path, method, types: Object.keys(content) }).toEqual({ path, method, types: everyType });
        }
      }
    }
    expect(bodies).toBeGreaterThan(50);
  });
});
