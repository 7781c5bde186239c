import { FIELD_LIMITS } from '../src/wire/schemas';
import { useProjectService } from './app';
import { admin, createProject, rootUid, uniqueSlug } from './project-fixtures';

const service = useProjectService();
let root: string;
beforeAll(async () => {
  root = await rootUid(service);
});

const url = (length: number) => {
  const prefix = 'https://example.com/';
  return prefix + 'a'.repeat(length - prefix.length);
};
const slugOf = (length: number) => {
  const prefix = uniqueSlug('s');
  return prefix + 'x'.repeat(length - prefix.length);
};
const members = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ username: `user-${index}` }));

function create(fields: Record<string, unknown>) {
  return service.request
    .post('/projects')
    .set('Authorization', admin())
    .send({ slug: uniqueSlug(), name: 'n', description: 'd', parent_uid: root, ...fields });
}

// [field, a value at the bound (accepted), a value one past it (refused), the message]
const bounds: [string, () => unknown, () => unknown, string][] = [
  ['name', () => 'n'.repeat(255), () => 'n'.repeat(256), 'name: must be at most 255 characters'],
  ['slug', () => slugOf(100), () => slugOf(101), 'slug: must be at most 100 characters'],
  [
    'description',
    () => 'd'.repeat(8000),
    () => 'd'.repeat(8001),
    'description: must be at most 8000 characters',
  ],
  [
    'mission_statement',
    () => 'm'.repeat(8000),
    () => 'm'.repeat(8001),
    'mission_statement: must be at most 8000 characters',
  ],
  [
    'legal_entity_name',
    () => 'l'.repeat(255),
    () => 'l'.repeat(256),
    'legal_entity_name: must be at most 255 characters',
  ],
  ['charter_url', () => url(2048), () => url(2049), 'charter_url: must be at most 2048 characters'],
  ['logo_url', () => url(2048), () => url(2049), 'logo_url: must be at most 2048 characters'],
  ['repository_url', () => url(2048), () => url(2049), 'repository_url: must be at most 2048 characters'],
  ['website_url', () => url(2048), () => url(2049), 'website_url: must be at most 2048 characters'],
  [
    'entity_formation_document_url',
    () => url(2048),
    () => url(2049),
    'entity_formation_document_url: must be at most 2048 characters',
  ],
  ['writers', () => members(300), () => members(301), 'writers: must be at most 300 items'],
  ['auditors', () => members(300), () => members(301), 'auditors: must be at most 300 items'],
  [
    'meeting_coordinators',
    () => members(300),
    () => members(301),
    'meeting_coordinators: must be at most 300 items',
  ],
  [
    'funding_model',
    () => ['Crowdfunding', 'Membership', 'Alternate Funding'],
    () => ['Crowdfunding', 'Membership', 'Alternate Funding', 'Membership'],
    'funding_model: must be at most 3 items',
  ],
  [
    'writers',
    () => [{ username: 'u'.repeat(255), name: 'n'.repeat(255), avatar: url(2048) }],
    () => [{ username: 'u'.repeat(256) }],
    'writers[0].username: must be at most 255 characters',
  ],
  [
    'writers',
    () => [{ name: 'n'.repeat(255) }],
    () => [{ name: 'n'.repeat(256) }],
    'writers[0].name: must be at most 255 characters',
  ],
  [
    'auditors',
    () => [{ avatar: url(2048) }],
    () => [{ avatar: url(2049) }],
    'auditors[0].avatar: must be at most 2048 characters',
  ],
  [
    'auditors',
    () => [{ email: `${'e'.repeat(242)}@example.com` }],
    () => [{ email: `${'e'.repeat(243)}@example.com` }],
    'auditors[0].email: must be at most 254 characters',
  ],
  [
    'legal_parent_uid',
    () => '',
    () => `${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(13)}`,
    'legal_parent_uid: must be at most 36 characters',
  ],
];

describe('field bounds', () => {
  it.each(bounds)(
    '%s: accepts a value at its bound and refuses one past it',
    async (field, atBound, past, message) => {
      await create({ [field]: atBound() }).expect(201);
      const response = await create({ [field]: past() }).expect(400);
      expect(response.body).toEqual({ code: '400', message });
    },
  );

  it('refuses a 900 KB description with a 400 naming the field (it used to be stored)', async () => {
    const response = await create({ description: 'x'.repeat(900_000) }).expect(400);
    expect(response.body).toEqual({ code: '400', message: 'description: must be at most 8000 characters' });
  });

  it('refuses a settings PUT with 5,000 writers quickly, writing nothing', async () => {
    const project = await createProject(service, { parent_uid: root, writers: [{ username: 'kept' }] });
    const started = Date.now();
    const response = await service.request
      .put(`/projects/${project.uid}/settings`)
      .set('Authorization', admin())
      .send({ writers: members(5000) })
      .expect(400);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(response.body).toEqual({ code: '400', message: 'writers: must be at most 300 items' });
    const settings = await service.request
      .get(`/projects/${project.uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    expect(settings.body.writers).toEqual([expect.objectContaining({ username: 'kept' })]);
  });

  it('bounds the same fields in XML bodies', async () => {
    const response = await service.request
      .post('/projects')
      .set('Authorization', admin())
      .set('Content-Type', 'application/xml')
      .send(
        `<CreateProjectRequest><slug>${uniqueSlug()}</slug><name>${'n'.repeat(256)}</name>` +
          `<description>d</description><parent_uid>${root}</parent_uid></CreateProjectRequest>`,
      )
      .expect(400);
    expect(response.body).toEqual({ code: '400', message: 'name: must be at most 255 characters' });
  });

  it('bounds list query parameters and conditional headers', async () => {
    const slug = await service.request
      .get('/projects')
      .query({ slug: 's'.repeat(101) })
      .set('Authorization', admin())
      .expect(400);
    expect(slug.body).toEqual({ code: '400', message: 'slug: must be at most 100 characters' });
    const token = await service.request
      .get('/projects')
      .query({ page_token: 't'.repeat(2049) })
      .set('Authorization', admin())
      .expect(400);
    expect(token.body).toEqual({ code: '400', message: 'page_token: must be at most 2048 characters' });
    const project = await createProject(service, { parent_uid: root });
    const ifMatch = await service.request
      .put(`/projects/${project.uid}`)
      .set('Authorization', admin())
      .set('If-Match', `"${'b'.repeat(1030)}"`)
      .send({ slug: project.slug, name: 'n', description: 'd', parent_uid: root })
      .expect(400);
    expect(ifMatch.body).toEqual({ code: '400', message: 'If-Match: must be at most 1024 characters' });
  });
});

describe('the OpenAPI document', () => {
  interface Schema {
    properties: Record<string, { maxLength?: number; maxItems?: number; items?: unknown }>;
  }
  let schemas: Record<string, Schema>;
  beforeAll(async () => {
    const response = await service.request.get('/_projects/openapi3.json').expect(200);
    schemas = (response.body as { components: { schemas: Record<string, Schema> } }).components.schemas;
  });

  it('declares a maxLength or maxItems for every string and array of the request bodies', () => {
    const unbounded: string[] = [];
    for (const name of ['CreateProjectRequest', 'UpdateProjectBaseRequest', 'UpdateProjectSettingsRequest']) {
      for (const [field, property] of Object.entries(schemas[name]!.properties)) {
        const text = JSON.stringify(property);
        const isArray = text.includes('"type":"array"');
        const isString = text.includes('"type":"string"');
        const isEnum = text.includes('"enum"') && !isArray;
        if (isArray && property.maxItems === undefined) unbounded.push(`${name}.${field}`);
        if (isString && !isArray && !isEnum && property.maxLength === undefined)
          unbounded.push(`${name}.${field}`);
      }
    }
    expect(unbounded).toEqual([]);
    expect(schemas['CreateProjectRequest']!.properties['description']!.maxLength).toBe(
      FIELD_LIMITS.description,
    );
    expect(schemas['UpdateProjectSettingsRequest']!.properties['writers']!.maxItems).toBe(
      FIELD_LIMITS.members,
    );
  });
});
