import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import reference from './fixtures/gitea-api-v1-subset.swagger.json';
import { useCodeHostingApi } from './app';
import {
  adminAuthorization,
  api,
  auth,
  createOrg,
  createOrgRepo,
  createTeam,
  createUser,
  type Actor,
} from './actors';

// Real responses checked twice: against the document this service serves (generated from its
// zod schemas) and against Gitea's own Swagger definitions (a committed copy of the reference).

const service = useCodeHostingApi();

type JsonSchema = Record<string, unknown>;

/**
 * Gitea emits null for nil pointers (Repository.parent, Activity.comment, ...), which
 * Swagger 2.0 cannot say; every $ref property of the reference therefore also accepts null.
 */
function allowNullForReferences(definitions: Record<string, JsonSchema>): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(definitions).map(([name, definition]) => {
      const properties = (definition['properties'] ?? {}) as Record<string, JsonSchema>;
      const relaxed = Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [
          key,
          property['$ref'] ? { anyOf: [property, { type: 'null' }] } : property,
        ]),
      );
      return [name, { ...definition, properties: relaxed }];
    }),
  );
}

const definitions = allowNullForReferences(reference.definitions as unknown as Record<string, JsonSchema>);

function newAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isInteger(value) });
  return ajv;
}

const giteaAjv = newAjv();
giteaAjv.addSchema({ $id: 'gitea', definitions });
const giteaValidators = new Map<string, ValidateFunction>();
function giteaValidator(definition: string): ValidateFunction {
  if (!giteaValidators.has(definition))
    giteaValidators.set(definition, giteaAjv.compile({ $ref: `gitea#/definitions/${definition}` }));
  return giteaValidators.get(definition)!;
}

let servedAjv: Ajv;
function servedValidator(component: string): ValidateFunction {
  return (
    servedAjv.getSchema(`served#/components/schemas/${component}`) ??
    servedAjv.compile({ $ref: `served#/components/schemas/${component}` })
  );
}

function expectValid(validate: ValidateFunction, body: unknown): void {
  validate(body);
  expect(validate.errors ?? []).toEqual([]);
}

/** Gitea always emits every field: none of the reference's properties may be missing. */
function expectEveryField(definition: string, body: Record<string, unknown>): void {
  const properties = Object.keys((definitions[definition]!['properties'] ?? {}) as object);
  expect(properties.filter((property) => !(property in body))).toEqual([]);
}

function expectConforms(definition: string, body: Record<string, unknown>, component = definition): void {
  expectValid(giteaValidator(definition), body);
  expectValid(servedValidator(component), body);
  expectEveryField(definition, body);
}

let owner: Actor;
let org: { name: string };
let repo: string;

beforeAll(async () => {
  const document = await service.request.get('/swagger.v1.json').expect(200);
  servedAjv = newAjv();
  servedAjv.addSchema({ $id: 'served', components: document.body.components });
  owner = await createUser(service, 'owner');
  org = await createOrg(service, owner, { email: 'org@example.com', visibility: 'public' });
  repo = await createOrgRepo(service, owner.token, org.name, { private: true });
  await service.request
    .post(`${api}/repos/${org.name}/${repo}/issues`)
    .set(...auth(owner.token))
    .send({ title: 'issue' })
    .expect(201);
});

describe('responses conform to the served document and to Gitea’s definitions', () => {
  it('serves an OpenAPI document naming the ten organization operations by Gitea’s operationIds', async () => {
    const document = await service.request.get('/swagger.v1.json').expect(200);
    const operationIds = Object.values(
      document.body.paths as Record<string, Record<string, { operationId: string }>>,
    ).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    expect(operationIds).toEqual(
      expect.arrayContaining([
        'orgListCurrentUserOrgs',
        'orgListUserOrgs',
        'orgGetUserPermissions',
        'orgGetAll',
        'orgCreate',
        'orgGet',
        'renameOrg',
        'orgEdit',
        'orgDelete',
        'orgListActivityFeeds',
      ]),
    );
    for (const [path, item] of Object.entries(reference.paths)) {
      for (const method of Object.keys(item)) {
        const served = document.body.paths[path]?.[method];
        expect(served).toBeDefined();
        expect(served.operationId).toBe(
          (item as Record<string, { operationId: string }>)[method]!.operationId,
        );
      }
    }
    // The upload's multipart body and the download at the site root.
    const upload = document.body.paths['/repos/{owner}/{repo}/issues/{index}/assets'].post;
    expect(upload.requestBody.content['multipart/form-data'].schema.properties.attachment).toEqual(
      expect.objectContaining({ type: 'string', format: 'binary' }),
    );
    const download = document.body.paths['/attachments/{uuid}'].get;
    expect(download.servers).toEqual([{ url: 'http://code-hosting.test/' }]);
    expect(Object.keys(download.responses['200'].content)).toEqual(['application/octet-stream']);
  });

  it('declares Gitea’s security schemes for every credential form it accepts, so Authorize offers each', async () => {
    const document = await service.request.get('/swagger.v1.json').expect(200);
    // Two-factor accounts do not exist here, so no X-GITEA-OTP (TOTPHeader).
    const accepted = Object.entries(reference.securityDefinitions).filter(([name]) => name !== 'TOTPHeader');
    const expected = Object.fromEntries(
      accepted.map(([name, scheme]: [string, { type: string; name?: string; in?: string }]) => [
        name,
        scheme.type === 'basic'
          ? { type: 'http', scheme: 'basic' }
          : { type: scheme.type, name: scheme.name, in: scheme.in },
      ]),
    );
    const served = document.body.components.securitySchemes as Record<string, Record<string, string>>;
    expect(
      Object.fromEntries(
        Object.entries(served).map(([name, scheme]) => [
          name,
          scheme['type'] === 'http'
            ? { type: scheme['type'], scheme: scheme['scheme'] }
            : { type: scheme['type'], name: scheme['name'], in: scheme['in'] },
        ]),
      ),
    ).toEqual(expected);
    expect(document.body.security).toEqual(
      reference.security.filter((requirement) => !('TOTPHeader' in requirement)),
    );
  });

  it('describes the token and access_token query schemes as accepted, which they are', async () => {
    const document = await service.request.get('/swagger.v1.json').expect(200);
    const schemes = document.body.components.securitySchemes as Record<
      string,
      { in: string; name: string; description: string }
    >;
    const user = await createUser(service, 'query-token');
    for (const scheme of [schemes['Token']!, schemes['AccessToken']!]) {
      expect({ name: scheme.name, in: scheme.in }).toEqual({ name: expect.any(String), in: 'query' });
      // What the Authorize dialog says of it is what the service does.
      expect(scheme.description).toMatch(/\baccepted\b/i);
      expect(scheme.description).not.toMatch(/\bremov/i);
      expect(scheme.description).toContain('AuthorizationHeaderToken');
      const answer = await service.request
        .get(`${api}/user`)
        .query({ [scheme.name]: user.token })
        .expect(200);
      expect(answer.body.login).toBe(user.username);
    }
  });

  it('documents the path parameters as Gitea does: issue indexes and attachment ids are int64', async () => {
    const document = await service.request.get('/swagger.v1.json').expect(200);
    type Parameter = { name: string; in: string; type?: string; format?: string; schema?: Parameter };
    const pathParameters = (parameters: Parameter[] = [], typeOf: (parameter: Parameter) => Parameter) =>
      parameters
        .filter((parameter) => parameter.in === 'path')
        .map((parameter) => ({
          name: parameter.name,
          type: typeOf(parameter).type,
          format: typeOf(parameter).format,
        }));
    for (const [path, item] of Object.entries(reference.paths)) {
      for (const [method, operation] of Object.entries(
        item as Record<string, { parameters?: Parameter[] }>,
      )) {
        const served = document.body.paths[path][method] as { parameters?: Parameter[] };
        expect({ path, method, parameters: pathParameters(served.parameters, (p) => p.schema!) }).toEqual({
          path,
          method,
          parameters: pathParameters(operation.parameters, (p) => p),
        });
      }
    }
    expect(
      pathParameters(document.body.paths['/teams/{id}/members/{username}'].put.parameters, (p) => p.schema!),
    ).toEqual([
      { name: 'id', type: 'integer', format: 'int64' },
      { name: 'username', type: 'string', format: undefined },
    ]);
  });

  it('both validators reject a body of the wrong shape', () => {
    const wrong = { id: 'one', name: 5, visibility: true };
    expect(giteaValidator('Organization')(wrong)).toBe(false);
    expect(servedValidator('Organization')(wrong)).toBe(false);
    expect(servedValidator('Organization')({ ...wrong, id: 1, name: 'x', visibility: 'public' })).toBe(false);
  });

  it('Organization (orgCreate, orgGet, orgEdit, orgGetAll, orgListCurrentUserOrgs, orgListUserOrgs)', async () => {
    const created = await service.request
      .post(`${api}/orgs`)
      .set(...auth(owner.token))
      .send({ username: 'shape-org' })
      .expect(201);
    expectConforms('Organization', created.body);
    const anonymous = await service.request.get(`${api}/orgs/${org.name}`).expect(200);
    expectConforms('Organization', anonymous.body);
    const edited = await service.request
      .patch(`${api}/orgs/${org.name}`)
      .set(...auth(owner.token))
      .send({ location: 'x' })
      .expect(200);
    expectConforms('Organization', edited.body);
    for (const path of ['/orgs', '/user/orgs', `/users/${owner.username}/orgs`]) {
      const list = await service.request
        .get(`${api}${path}`)
        .set(...auth(owner.token))
        .expect(200);
      expect(list.body.length).toBeGreaterThan(0);
      for (const item of list.body) expectConforms('Organization', item);
    }
  });

  it('OrganizationPermissions (orgGetUserPermissions)', async () => {
    const response = await service.request
      .get(`${api}/users/${owner.username}/orgs/${org.name}/permissions`)
      .set(...auth(owner.token))
      .expect(200);
    expectConforms('OrganizationPermissions', response.body);
  });

  it('Activity with its User and Repository (orgListActivityFeeds)', async () => {
    const response = await service.request
      .get(`${api}/orgs/${org.name}/activities/feeds`)
      .set(...auth(owner.token))
      .expect(200);
    expect(response.body).toHaveLength(2);
    for (const activity of response.body) {
      expectConforms('Activity', activity);
      expectEveryField('User', activity.act_user);
      expectEveryField('Repository', activity.repo);
    }
  });

  it('User, Repository and Team', async () => {
    const user = await service.request
      .get(`${api}/user`)
      .set(...auth(owner.token))
      .expect(200);
    expectConforms('User', user.body);
    const admin = await service.request
      .get(`${api}/users/${owner.username}`)
      .set('Authorization', adminAuthorization)
      .expect(200);
    expectConforms('User', admin.body);
    const repository = await service.request
      .get(`${api}/repos/${org.name}/${repo}`)
      .set(...auth(owner.token))
      .expect(200);
    expectConforms('Repository', repository.body);
    await createTeam(service, owner.token, org.name, { permission: 'write' });
    const teams = await service.request
      .get(`${api}/orgs/${org.name}/teams`)
      .set(...auth(owner.token))
      .expect(200);
    for (const team of teams.body) expectConforms('Team', team);
  });

  it('Attachment (the five attachment operations and the issue’s assets)', async () => {
    const assets = `${api}/repos/${org.name}/${repo}/issues/1/assets`;
    const created = await service.request
      .post(assets)
      .set(...auth(owner.token))
      .attach('attachment', Buffer.from('shape'), 'shape.txt')
      .expect(201);
    expectConforms('Attachment', created.body);
    const listed = await service.request
      .get(assets)
      .set(...auth(owner.token))
      .expect(200);
    for (const item of listed.body) expectConforms('Attachment', item);
    const fetched = await service.request
      .get(`${assets}/${created.body.id}`)
      .set(...auth(owner.token))
      .expect(200);
    expectConforms('Attachment', fetched.body);
    const edited = await service.request
      .patch(`${assets}/${created.body.id}`)
      .set(...auth(owner.token))
      .send({ name: 'edited.txt' })
      .expect(201);
    expectConforms('Attachment', edited.body);
    const issue = await service.request
      .get(`${api}/repos/${org.name}/${repo}/issues/1`)
      .set(...auth(owner.token))
      .expect(200);
    // The reference subset has no Issue definition: the served one, and Gitea's Attachment for its assets.
    expectValid(servedValidator('Issue'), issue.body);
    expect(issue.body.assets).toHaveLength(1);
    for (const asset of issue.body.assets) expectConforms('Attachment', asset);
  });

  it.each([
    ['401', () => service.request.post(`${api}/orgs`).send({ username: 'x' })],
    [
      '403',
      () =>
        service.request
          .get(`${api}/user`)
          .set(...auth(owner.token))
          .set('Sudo', 'root'),
    ],
    ['404', () => service.request.get(`${api}/orgs/no-such-org`)],
    ['409', () => service.request.delete(`${api}/orgs/${org.name}`).set(...auth(owner.token))],
    [
      '422',
      () =>
        service.request
          .post(`${api}/orgs`)
          .set(...auth(owner.token))
          .send({ username: 'api' }),
    ],
  ])('APIError bodies (%s)', async (status, send) => {
    const response = await send().expect(Number(status));
    expectConforms('APIError', response.body);
    expect(Object.keys(response.body).sort()).toEqual(['message', 'url']);
  });
});
