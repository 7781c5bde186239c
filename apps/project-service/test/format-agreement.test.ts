import fc from 'fast-check';
import { encodeGobRepresentation } from '../src/http/gob/representation';
import type { ObjectShape } from '../src/http/representation-shape';
import { representations, type RepresentationName } from '../src/http/representations';
import { encodeXmlRepresentation } from '../src/http/xml/xml-encoder';
import { useProjectService } from './app';
import { admin, createProject, rootUid, uniqueSlug } from './project-fixtures';
import { MEDIA_TYPES } from './wire-formats';

// The same request is valid or invalid whatever its format. A body is generated as a set of
// fields (some left out) with valid, empty or invalid values, then sent as JSON, as XML and as
// gob, each written as a client whose type has exactly those fields would write it (a Go
// client's struct without the field, for gob; Go still leaves out the zero values of the fields
// it has). All three get the same status and the same message. FUZZ_RUNS raises the cases.
const RUNS = Math.max(10, Math.floor(Number(process.env.FUZZ_RUNS ?? 3000) / 30));
// 3 requests per case: room for a loaded machine (about 6 s per operation when idle).
jest.setTimeout(120_000);
const service = useProjectService();
let root: string;
let target: string;

beforeAll(async () => {
  root = await rootUid(service);
  target = (await createProject(service, { parent_uid: root })).uid;
});

/** Marks the valid slug: each send gets a fresh one, so a success in one format is no 409 in the next. */
const FRESH_SLUG = '\u0000fresh-slug';
const ROOT = '\u0000root';

const user = {
  username: 'u1',
  name: 'User One',
  email: 'u1@example.com',
  avatar: 'https://example.com/a.png',
};
/** Per field: a valid value, and values the schema refuses; '' and "left out" are added to every field. */
const SAMPLES: Record<string, { valid: unknown[]; invalid: unknown[] }> = {
  slug: { valid: [FRESH_SLUG], invalid: ['Not A Slug'] },
  name: { valid: ['A name'], invalid: ['n'.repeat(300)] },
  description: { valid: ['A description'], invalid: [] },
  parent_uid: { valid: [ROOT], invalid: ['not-a-uuid'] },
  public: { valid: [true, false], invalid: [] },
  is_foundation: { valid: [true, false], invalid: [] },
  autojoin_enabled: { valid: [true, false], invalid: [] },
  category: { valid: ['Sandbox'], invalid: ['Bogus'] },
  stage: { valid: ['Formation - Engaged'], invalid: ['Bogus'] },
  legal_entity_type: { valid: ['Series LLC'], invalid: ['Bogus'] },
  legal_entity_name: { valid: ['Entity LLC'], invalid: [] },
  legal_parent_uid: { valid: [ROOT], invalid: ['not-a-uuid'] },
  funding_model: { valid: [['Crowdfunding'], []], invalid: [['Bogus']] },
  charter_url: { valid: ['https://example.com/charter'], invalid: ['not a uri'] },
  entity_formation_document_url: { valid: ['https://example.com/doc'], invalid: ['not a uri'] },
  logo_url: { valid: ['https://example.com/logo.png'], invalid: ['not a uri'] },
  repository_url: { valid: ['https://example.com/repo'], invalid: ['not a uri'] },
  website_url: { valid: ['https://example.com/'], invalid: ['not a uri'] },
  formation_date: { valid: ['2021-02-28'], invalid: ['2021-02-30'] },
  entity_dissolution_date: { valid: ['2024-01-01'], invalid: ['yesterday'] },
  announcement_date: { valid: ['2022-01-01'], invalid: ['2022-13-01'] },
  mission_statement: { valid: ['A mission'], invalid: [] },
  writers: { valid: [[user], []], invalid: [[{ ...user, email: 'not an email' }]] },
  auditors: { valid: [[user], []], invalid: [[{ ...user, avatar: 'not a uri' }]] },
  meeting_coordinators: { valid: [[{ username: 'mo', name: '', email: '', avatar: '' }]], invalid: [] },
};

const LEFT_OUT = Symbol('left out');

function emptyOf(values: unknown[]): unknown {
  const example = values[0];
  return typeof example === 'boolean' ? false : Array.isArray(example) ? [] : '';
}

/** Bodies of `representation`: each field left out, empty, valid or invalid. */
function bodies(representation: RepresentationName): fc.Arbitrary<Record<string, unknown>> {
  const fields = representations[representation].fields.map((field) => field.name);
  const entries = fields.map((name) => {
    const samples = SAMPLES[name];
    if (!samples) throw new Error(`no samples for ${name}`);
    // Mostly valid values, so that whole bodies succeed too; each field sometimes left out, empty or invalid.
    const value = fc.oneof(
      { arbitrary: fc.constantFrom(...samples.valid), weight: 12 },
      { arbitrary: fc.constantFrom(LEFT_OUT, emptyOf(samples.valid), ...samples.invalid), weight: 3 },
    );
    return value.map((chosen) => [name, chosen] as const);
  });
  return fc
    .tuple(...entries)
    .map((pairs) => Object.fromEntries(pairs.filter(([, value]) => value !== LEFT_OUT)));
}

function resolved(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => [
      name,
      value === FRESH_SLUG ? uniqueSlug('agree') : value === ROOT ? root : value,
    ]),
  );
}

/** The representation as a client whose type has only the body's fields declares it. */
function clientShape(representation: RepresentationName, body: Record<string, unknown>): ObjectShape {
  const shape = representations[representation];
  return { ...shape, fields: shape.fields.filter((field) => field.name in body) };
}

type Format = 'json' | 'xml' | 'gob';

function encoded(
  representation: RepresentationName,
  format: Format,
  body: Record<string, unknown>,
): Buffer | string {
  // A string: supertest would serialize a Buffer sent as JSON as {"type":"Buffer",…}.
  if (format === 'json') return JSON.stringify(body);
  const shape = clientShape(representation, body);
  return format === 'gob'
    ? encodeGobRepresentation(shape, body)
    : Buffer.from(encodeXmlRepresentation(shape, body));
}

const OPERATIONS = [
  { representation: 'CreateProjectRequest', method: 'post', path: () => '/projects' },
  { representation: 'UpdateProjectBaseRequest', method: 'put', path: () => `/projects/${target}` },
  {
    representation: 'UpdateProjectSettingsRequest',
    method: 'put',
    path: () => `/projects/${target}/settings`,
  },
] as const;

describe('one request, three formats', () => {
  it.each(OPERATIONS)(
    '$method $representation: the same status and message in JSON, XML and gob',
    async (operation) => {
      const seen = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(bodies(operation.representation), async (generated) => {
          const outcomes: Record<string, unknown> = {};
          for (const format of ['json', 'xml', 'gob'] as const) {
            const body = resolved(generated);
            const response = await service.request[operation.method](operation.path())
              .set('Authorization', admin())
              .set('If-Match', '*')
              .set('Accept', 'application/json')
              .set('Content-Type', format === 'json' ? 'application/json' : MEDIA_TYPES[format])
              .send(encoded(operation.representation, format, body));
            seen.set(response.status, (seen.get(response.status) ?? 0) + 1);
            const error = JSON.parse(response.text) as { message?: string };
            outcomes[format] = {
              status: response.status,
              message: response.status >= 400 ? error.message : '',
            };
          }
          expect(outcomes).toEqual({ json: outcomes['json'], xml: outcomes['json'], gob: outcomes['json'] });
        }),
        { numRuns: RUNS },
      );
      // The generator reaches both answers, not only refusals.
      expect([...seen.keys()].some((status) => status < 300)).toBe(true);
      expect(seen.get(400)).toBeGreaterThan(0);
    },
  );

  it('a create without description is refused in every format, and with "" accepted in every format', async () => {
    const without = { slug: FRESH_SLUG, name: 'n', parent_uid: ROOT };
    const empty = { ...without, description: '' };
    for (const format of ['json', 'xml', 'gob'] as const) {
      for (const [body, status] of [
        [without, 400],
        [empty, 201],
      ] as const) {
        const response = await service.request
          .post('/projects')
          .set('Authorization', admin())
          .set('Accept', 'application/json')
          .set('Content-Type', format === 'json' ? 'application/json' : MEDIA_TYPES[format])
          .send(encoded('CreateProjectRequest', format, resolved(body)));
        expect({ format, body: Object.keys(body), status: response.status }).toEqual({
          format,
          body: Object.keys(body),
          status,
        });
      }
    }
  });
});
