import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { decodeGobRepresentation, encodeGobRepresentation } from '../src/http/gob/representation';
import { zeroValueOf, type Shape } from '../src/http/representation-shape';
import { representations, type RepresentationName } from '../src/http/representations';
import { decodeXmlRepresentation } from '../src/http/xml/xml-decoder';
import { encodeXmlRepresentation } from '../src/http/xml/xml-encoder';
import { goForTests } from '@repo/testing';
import { goDecode, goEncode, goldenDir, goLookup } from './go-client';

// Golden files: what Go's encoding/gob and encoding/xml write for our request
// representations, and what we write for our responses (as Go decoded them
// when the files were made). With Go installed every case is checked live as
// well; UPDATE_GOLDEN=1 rewrites the files from a live run.
const update = process.env.UPDATE_GOLDEN === '1';
// Without Go: one line saying the live checks were not run (a failure where GO_INTEROP=required).
const goAvailable = goForTests('project-service go-golden.test.ts: live checks against Go', goLookup);
const FORMATS = ['gob', 'xml'] as const;
type Format = (typeof FORMATS)[number];

const UID = '0b6a1c86-3f0e-4f55-9a3e-2d0c4c7d9e11';
const PARENT = '5f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a4b';
const STAMP = '2026-11-24T10:20:30.456Z';
const alice = {
  name: 'Alice Ünïcødé',
  email: 'alice@example.com',
  username: 'alice',
  avatar: 'https://example.com/a.png',
};
const bob = { name: '', email: '', username: 'bob', avatar: '' };

const base = {
  uid: UID,
  slug: 'golden-project',
  name: 'Golden <project> & "friends" 😀',
  description: 'line one\nline two\ttabbed',
  parent_uid: PARENT,
  public: true,
  is_foundation: false,
  autojoin_enabled: true,
  category: 'Sandbox',
  stage: 'Formation - Engaged',
  legal_entity_type: 'Series LLC',
  legal_entity_name: 'Golden LLC',
  legal_parent_uid: '',
  funding_model: ['Crowdfunding', 'Membership'],
  charter_url: 'https://example.com/charter?x=1&y=2',
  entity_formation_document_url: '',
  logo_url: 'https://example.com/logo.svg',
  repository_url: '',
  website_url: 'https://example.com/',
  formation_date: '2021-02-28',
  entity_dissolution_date: '',
  created_at: STAMP,
  updated_at: STAMP,
};
const settings = {
  uid: UID,
  announcement_date: '2022-01-01',
  mission_statement: 'To test every byte.',
  writers: [alice, bob],
  auditors: [],
  meeting_coordinators: [bob],
  created_at: STAMP,
  updated_at: STAMP,
};
const full = { ...base, ...settings };
const rootBase = { ...base, parent_uid: '', public: false, autojoin_enabled: false, funding_model: [] };

const requestCases: [RepresentationName, string, Record<string, unknown>][] = [
  [
    'CreateProjectRequest',
    'every-field',
    (({ uid: _u, created_at: _c, updated_at: _d, ...fields }) => fields)(full),
  ],
  [
    'CreateProjectRequest',
    'required-only',
    { slug: 'minimal', name: 'Minimal', description: '', parent_uid: PARENT },
  ],
  [
    'UpdateProjectBaseRequest',
    'root',
    (({ uid: _u, created_at: _c, updated_at: _d, ...fields }) => fields)(rootBase),
  ],
  [
    'UpdateProjectSettingsRequest',
    'members',
    {
      announcement_date: '',
      mission_statement: 'm',
      writers: [alice],
      auditors: [bob, alice],
      meeting_coordinators: [],
    },
  ],
  ['UpdateProjectSettingsRequest', 'empty', {}],
];

const responseCases: [RepresentationName, string, Record<string, unknown>][] = [
  ['ProjectFull', 'every-field', full],
  ['ProjectBase', 'root', rootBase],
  ['ProjectSettings', 'members', settings],
  [
    'Projects',
    'page',
    { projects: [full, { ...full, uid: PARENT, writers: [] }], next_page_token: 'eyJuIjoiQiJ9' },
  ],
  ['Projects', 'empty', { projects: [] }],
  ['Error', 'precondition', { code: '412', message: 'the resource was changed: If-Match does not match' }],
];

/** A representation with every field present, as the Go client prints what it decoded. */
function filled(shape: Shape, value: unknown): unknown {
  if (value === undefined) return zeroValueOf(shape);
  if (shape.kind === 'array') return (value as unknown[]).map((item) => filled(shape.item, item));
  if (shape.kind !== 'object') return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    shape.fields.map((field) => [field.name, filled(field.shape, record[field.name])]),
  );
}

function golden(name: string, format: Format, produce: () => Buffer): Buffer {
  const file = path.join(goldenDir, `${name}.${format}`);
  if (update || !existsSync(file)) {
    if (!update) throw new Error(`missing golden file ${file}: run with UPDATE_GOLDEN=1 and Go installed`);
    writeFileSync(file, produce());
  }
  return readFileSync(file);
}

const decoders = { gob: decodeGobRepresentation, xml: decodeXmlRepresentation };
const encoders = {
  gob: encodeGobRepresentation,
  xml: (shape: Parameters<typeof encodeXmlRepresentation>[0], value: unknown) =>
    encodeXmlRepresentation(shape, value),
};

describe.each(FORMATS)('%s bodies against Go', (format) => {
  describe.each(requestCases)('request %s (%s)', (representation, name, json) => {
    const shape = representations[representation];
    const file = `request.${representation}.${name}`;

    it('decodes what Go encodes into the same value JSON gives', () => {
      const body = golden(file, format, () => goEncode(representation, format, json));
      const fromJson = filled(shape, json);
      expect(filled(shape, decoders[format](body, shape))).toEqual(fromJson);
    });

    if (goAvailable) {
      it('matches what Go encodes today', () => {
        expect(goEncode(representation, format, json)).toEqual(
          readFileSync(path.join(goldenDir, `${file}.${format}`)),
        );
      });
    }
  });

  describe.each(responseCases)('response %s (%s)', (representation, name, json) => {
    const shape = representations[representation];
    const file = `response.${representation}.${name}`;

    it('encodes the bytes Go was seen to decode', () => {
      const body = encoders[format](shape, json);
      expect(body).toEqual(golden(file, format, () => body));
    });

    if (goAvailable) {
      it('is decoded by Go into the same value', () => {
        expect(goDecode(representation, format, encoders[format](shape, json))).toEqual(filled(shape, json));
      });
    }
  });
});
