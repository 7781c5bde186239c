/**
 * Encode/decode throughput of a 10,000-project list in each body format, the
 * way the service does it (the list's zod shape compiled once, then reused).
 * Run: pnpm run bench (or npx tsx bench/codecs.ts). Prints a table.
 */
import os from 'node:os';
import { decodeGobRepresentation, encodeGobRepresentation } from '../src/http/gob/representation';
import { representations } from '../src/http/representations';
import { decodeXmlRepresentation, XML_LIMITS } from '../src/http/xml/xml-decoder';
import { encodeXmlRepresentation } from '../src/http/xml/xml-encoder';

const COUNT = Number(process.env.BENCH_PROJECTS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function project(index: number) {
  const uid = `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
  return {
    uid,
    slug: `project-${index}`,
    name: `Project number ${index}`,
    description: 'A project of the benchmark, with a description of typical length for the service.',
    parent_uid: '00000000-0000-4000-8000-000000000000',
    public: index % 2 === 0,
    is_foundation: false,
    autojoin_enabled: index % 3 === 0,
    category: 'Sandbox',
    stage: 'Active',
    legal_entity_type: '',
    legal_entity_name: '',
    legal_parent_uid: '',
    funding_model: ['Membership'],
    charter_url: 'https://example.com/charter',
    entity_formation_document_url: '',
    logo_url: 'https://example.com/logo.svg',
    repository_url: `https://example.com/repo/${index}`,
    website_url: 'https://example.com/',
    formation_date: '2021-02-28',
    entity_dissolution_date: '',
    announcement_date: '',
    mission_statement: 'To be measured.',
    writers: [{ name: 'Writer', email: 'writer@example.com', username: `writer${index % 50}`, avatar: '' }],
    auditors: [{ name: 'Auditor', email: 'auditor@example.com', username: 'auditor', avatar: '' }],
    meeting_coordinators: [],
    created_at: '2026-11-24T10:20:30.456Z',
    updated_at: '2026-11-24T10:20:30.456Z',
  };
}

function timed(run: () => unknown): { ms: number; bytes: number } {
  let bytes = 0;
  run(); // warm-up: compile the shape, let the JIT see the code
  const start = process.hrtime.bigint();
  for (let round = 0; round < ROUNDS; round++) {
    const out = run();
    bytes = typeof out === 'string' ? Buffer.byteLength(out) : Buffer.isBuffer(out) ? out.length : bytes;
  }
  return { ms: Number(process.hrtime.bigint() - start) / 1e6 / ROUNDS, bytes };
}

const list = { projects: Array.from({ length: COUNT }, (_, index) => project(index)) };
const shape = representations.Projects;
const json = JSON.stringify(list);
const gob = encodeGobRepresentation(shape, list);
const xml = encodeXmlRepresentation(shape, list);
// Requests nest 3 deep; the list response 4 (Projects, projects, writers, name).
const listLimits = { ...XML_LIMITS, maxDepth: 4, maxElements: Number.MAX_SAFE_INTEGER };

const rows = [
  ['json', timed(() => JSON.stringify(list)), timed(() => JSON.parse(json))],
  [
    'gob',
    timed(() => encodeGobRepresentation(shape, list)),
    timed(() => decodeGobRepresentation(gob, shape)),
  ],
  [
    'xml',
    timed(() => encodeXmlRepresentation(shape, list)),
    timed(() => decodeXmlRepresentation(xml, shape, listLimits)),
  ],
] as const;

const jsonEncode = rows[0][1].ms;
const mbps = (bytes: number, ms: number) => (bytes / 1024 / 1024 / (ms / 1000)).toFixed(1);
console.log(`${COUNT} projects, ${ROUNDS} rounds, node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'}`);
console.log(
  '| format | body MiB | encode ms | encode MiB/s | encode speed vs JSON.stringify | decode ms | decode MiB/s |',
);
console.log('|---|---|---|---|---|---|---|');
for (const [format, encode, decode] of rows) {
  const size = format === 'json' ? Buffer.byteLength(json) : format === 'gob' ? gob.length : xml.length;
  console.log(
    `| ${format} | ${(size / 1024 / 1024).toFixed(2)} | ${encode.ms.toFixed(1)} | ${mbps(size, encode.ms)} | ${(jsonEncode / encode.ms).toFixed(2)} | ${decode.ms.toFixed(1)} | ${mbps(size, decode.ms)} |`,
  );
}
