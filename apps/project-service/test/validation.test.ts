import { CATEGORIES, FUNDING_MODELS, LEGAL_ENTITY_TYPES, STAGES } from '../src/wire/schemas';
import { useProjectService } from './app';
import { admin, rootUid, uniqueSlug } from './project-fixtures';

const service = useProjectService();
let root: string;
beforeAll(async () => {
  root = await rootUid(service);
});

async function createWith(fields: Record<string, unknown>) {
  return service.request
    .post('/projects')
    .set('Authorization', admin())
    .send({ slug: uniqueSlug(), name: 'n', description: 'd', parent_uid: root, ...fields });
}

async function expectRejectedWith(fields: Record<string, unknown>, message: string) {
  const response = await createWith(fields);
  expect(response.status).toBe(400);
  expect(response.body).toEqual({ code: '400', message });
}

describe('field validation', () => {
  it.each([
    ['slug', 'Upper', 'slug: must match ^[a-z][a-z0-9_\\-]*[a-z0-9]$'],
    ['slug', '9starts-with-digit', 'slug: must match ^[a-z][a-z0-9_\\-]*[a-z0-9]$'],
    ['slug', 'ends-with-dash-', 'slug: must match ^[a-z][a-z0-9_\\-]*[a-z0-9]$'],
    ['slug', 'a', 'slug: must match ^[a-z][a-z0-9_\\-]*[a-z0-9]$'],
    ['name', '', 'name: must be at least 1 characters'],
    ['charter_url', 'not a url', 'charter_url: must be a valid uri'],
    ['entity_formation_document_url', '/relative/path', 'entity_formation_document_url: must be a valid uri'],
    ['logo_url', 'example.com/logo.png', 'logo_url: must be a valid uri'],
    ['repository_url', 'http://', 'repository_url: must be a valid uri'],
    ['website_url', 'ht tp://x', 'website_url: must be a valid uri'],
    ['formation_date', '2021-13-01', 'formation_date: must be a valid date'],
    ['entity_dissolution_date', '2021-02-30', 'entity_dissolution_date: must be a valid date'],
    ['announcement_date', '01/02/2021', 'announcement_date: must be a valid date'],
    ['legal_parent_uid', 'not-a-uuid', 'legal_parent_uid: must be a valid uuid'],
    ['public', 'yes', 'public: expected boolean'],
    ['is_foundation', 1, 'is_foundation: expected boolean'],
    ['autojoin_enabled', 'true', 'autojoin_enabled: expected boolean'],
    ['description', 42, 'description: expected string'],
    ['mission_statement', ['x'], 'mission_statement: expected string'],
    ['funding_model', 'Crowdfunding', 'funding_model: expected array'],
    ['writers', {}, 'writers: expected array'],
    ['auditors', [{ username: 'a', avatar: 'nope' }], 'auditors[0].avatar: must be a valid uri'],
    [
      'meeting_coordinators',
      [{ username: 'm', email: 'm@' }],
      'meeting_coordinators[0].email: must be a valid email',
    ],
  ])('rejects %s = %j with a message naming the field and rule', async (field, value, message) => {
    const response = await createWith({ [field]: value });
    expect([response.status, response.body]).toEqual([400, { code: '400', message }]);
  });

  it('reports every failing field in one message', async () => {
    const response = await createWith({ slug: 'BAD', charter_url: 'nope' });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain('slug: must match');
    expect(response.body.message).toContain('charter_url: must be a valid uri');
  });

  it.each([
    ['category', CATEGORIES],
    ['stage', STAGES],
    ['legal_entity_type', LEGAL_ENTITY_TYPES],
  ] as const)('accepts every %s value of the contract and rejects others', async (field, values) => {
    for (const value of values) {
      const response = await createWith({ [field]: value });
      expect([field, value, response.status]).toEqual([field, value, 201]);
      expect(response.body[field]).toBe(value);
    }
    const response = await createWith({ [field]: 'Not A Value' });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(new RegExp(`^${field}: must be one of `));
  });

  it('accepts every funding_model value of the contract and rejects others', async () => {
    const accepted = await createWith({ funding_model: [...FUNDING_MODELS] });
    expect(accepted.status).toBe(201);
    expect(accepted.body.funding_model).toEqual([...FUNDING_MODELS]);
    await expectRejectedWith(
      { funding_model: ['Crowdfunding', 'Donations'] },
      'funding_model[1]: must be one of "Crowdfunding", "Membership", "Alternate Funding"',
    );
  });

  it('spells the neutral category values exactly as the contract', async () => {
    expect(CATEGORIES).toContain('Neutral-2');
    expect(CATEGORIES).toContain('Pre-NEUTRAL');
    const response = await createWith({ category: 'Pre-NEUTRAL' });
    expect(response.status).toBe(201);
  });

  it('accepts "" for optional formatted fields and UserInfo email and avatar', async () => {
    const response = await createWith({
      charter_url: '',
      formation_date: '',
      legal_parent_uid: '',
      category: '',
      stage: '',
      writers: [{ username: 'w', email: '', avatar: '' }],
    });
    expect(response.status).toBe(201);
  });

  it('accepts valid formats', async () => {
    const response = await createWith({
      slug: uniqueSlug('ok_slug'),
      charter_url: 'https://example.com/a?b=c#d',
      formation_date: '2024-02-29',
      legal_parent_uid: root,
      writers: [{ username: 'w', email: 'w.x+y@example.co.uk', avatar: 'https://example.com/a.png' }],
    });
    expect(response.status).toBe(201);
  });

  it('rejects a body that is not an object', async () => {
    const response = await service.request
      .post('/projects')
      .set('Authorization', admin())
      .send([1, 2])
      .expect(400);
    expect(response.body.code).toBe('400');
  });
});

describe('values the database cannot store', () => {
  it('refuses a NUL character in a string field with 400, not a server error', async () => {
    const response = await createWith({ name: 'nul\u0000inside' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: '400',
      message: 'request contains a NUL character (U+0000), which is not accepted',
    });
  });

  it('refuses a NUL character inside a settings list the same way, leaving no half-created project', async () => {
    const slug = uniqueSlug();
    const response = await createWith({ slug, writers: [{ username: 'nul\u0000user' }] });
    expect(response.status).toBe(400);
    const listed = await service.request
      .get(`/projects?slug=${slug}`)
      .set('Authorization', admin())
      .expect(200);
    expect(listed.body.projects).toEqual([]);
  });
});
