/**
 * The most expensive request bodies of each format found under the 1 MiB body limit, as
 * `POST /projects` (CreateProjectRequest) bodies: what bench/body-costs.ts sends. Each format has
 * several candidates (the bench measures them all); the README's table names the worst of each.
 * None has a `name`: each is read and validated whole, then refused (400 "name: is required", or
 * the first bound it breaks), so no row measures the database.
 */
import type { GobWriter } from '../src/http/gob/primitives';
import { GobStream, GOB_TYPES } from '../test/gob-stream';

/** Just under the service's body limit (express's '1mb': 1,048,576 bytes). */
export const BODY_BYTES = 1_048_000;

export interface WorstCaseBody {
  name: string;
  format: 'json' | 'xml' | 'gob';
  contentType: string;
  body: Buffer;
}

/** `count` copies of `unit` filling what `head` and `tail` leave of the body. */
function fill(head: string, unit: string, tail: string, bytes = BODY_BYTES): string {
  const count = Math.floor((bytes - head.length - tail.length) / unit.length);
  return head + unit.repeat(count) + tail;
}

/** Items `item(0)`, `item(1)`, … joined by `separator`, as many as fit. */
function list(
  head: string,
  item: string | ((index: number) => string),
  separator: string,
  tail: string,
): string {
  const items: string[] = [];
  let length = head.length + tail.length;
  for (let index = 0; ; index++) {
    const next = typeof item === 'string' ? item : item(index);
    length += next.length + (index > 0 ? separator.length : 0);
    if (length > BODY_BYTES) break;
    items.push(next);
  }
  return head + items.join(separator) + tail;
}

const json = (name: string, text: string): WorstCaseBody => ({
  name,
  format: 'json',
  contentType: 'application/json',
  body: Buffer.from(text),
});
const xml = (name: string, text: string): WorstCaseBody => ({
  name,
  format: 'xml',
  contentType: 'application/xml',
  body: Buffer.from(text),
});
const gob = (name: string, body: Buffer): WorstCaseBody => ({
  name,
  format: 'gob',
  contentType: 'application/gob',
  body,
});

function jsonBodies(parent: string): WorstCaseBody[] {
  const fields = `"slug":"worst-case","description":"d","parent_uid":"${parent}"`;
  return [
    json('description of 1 MiB', fill(`{${fields},"mission_statement":"`, 'x', '"}')),
    json('writers: [{}, {}, …]', list(`{${fields},"writers":[`, '{}', ',', ']}')),
    json('writers: [0, 0, …]', list(`{${fields},"writers":[`, '0', ',', ']}')),
    json('unknown field: [0, 0, …]', list(`{${fields},"junk":[`, '0', ',', ']}')),
    json(
      'unknown keys',
      list(`{${fields},`, (index) => `"${index.toString(36)}":0`, ',', '}'),
    ),
    json(
      'nested arrays',
      `{${fields},"junk":${'['.repeat(BODY_BYTES / 2 - 200)}${']'.repeat(BODY_BYTES / 2 - 200)}}`,
    ),
    json('escapes in a string', fill(`{${fields},"mission_statement":"`, '\\u0041', '"}')),
  ];
}

function xmlBodies(parent: string): WorstCaseBody[] {
  const fields = `<slug>worst-case</slug><parent_uid>${parent}</parent_uid>`;
  const root = (inner: string) => `<CreateProjectRequest>${fields}${inner}</CreateProjectRequest>`;
  const [open, close] = root('\u0000').split('\u0000') as [string, string];
  return [
    xml('description of 1 MiB', fill(`${open}<description>`, 'x', `</description>${close}`)),
    xml(
      'attributes on one element',
      list(
        '<CreateProjectRequest ',
        (index) => `a${index.toString(36)}=""`,
        ' ',
        `>${fields}<description>d</description></CreateProjectRequest>`,
      ),
    ),
    xml(
      'attributes on many elements',
      fill(
        `${open}<description>d</description>`,
        `<x ${Array.from({ length: 40 }, (_, index) => `a${index}=""`).join(' ')}/>`,
        close,
      ),
    ),
    xml('an element name of 1 MiB', fill(`${open}<description>d</description><`, 'x', `/>${close}`)),
    xml('an attribute value of 1 MiB', fill(`${open}<description a="`, 'x', `">d</description>${close}`)),
    xml('empty elements', fill(`${open}<description>d</description>`, '<x/>', close)),
    xml('comments between text', fill(`${open}<description>`, 'a<!---->', `</description>${close}`)),
    xml('comments', fill(`${open}<description>d</description>`, '<!---->', close)),
    xml('processing instructions', fill(`${open}<description>d</description>`, '<?a?>', close)),
    xml('entities in text', fill(`${open}<description>`, '&amp;', `</description>${close}`)),
    xml('character references in text', fill(`${open}<description>`, '&#65;', `</description>${close}`)),
    xml(
      'character references in an unknown element',
      fill(`${open}<description>d</description><junk>`, '&#65;', `</junk>${close}`),
    ),
    xml(
      'CDATA sections in an unknown element',
      fill(`${open}<description>d</description><junk>`, '<![CDATA[a]]>', `</junk>${close}`),
    ),
    xml('CDATA sections', fill(`${open}<description>`, '<![CDATA[a]]>', `</description>${close}`)),
  ];
}

/** Type ids of the hand-written streams (gob's first user id is 65). */
const T = { request: 65, users: 66, user: 67, junk: 68, junkItem: 69 } as const;

function gobBodies(parent: string): WorstCaseBody[] {
  const requestFields = [
    ['Slug', GOB_TYPES.string],
    ['Description', GOB_TYPES.string],
    ['ParentUID', GOB_TYPES.string],
  ] as const;
  const strings = (message: GobWriter) => {
    for (const value of ['worst-case', 'd', parent]) {
      message.uint(1);
      message.string(value);
    }
  };
  // Each element of a slice of empty structs is one byte (its closing 0): a million of them.
  const elements = BODY_BYTES - 400;
  return [
    gob(
      'description of 1 MiB',
      new GobStream()
        .struct(T.request, 'CreateProjectRequest', requestFields)
        .value(T.request, (message) => {
          message.uint(1);
          message.string('worst-case');
          message.uint(1);
          message.string('x'.repeat(BODY_BYTES - 200));
          message.uint(1);
          message.string(parent);
          message.uint(0);
        })
        .toBuffer(),
    ),
    gob(
      `writers: ${elements.toLocaleString('en-US')} declared and sent`,
      new GobStream()
        .struct(T.request, 'CreateProjectRequest', [...requestFields, ['Writers', T.users]])
        .slice(T.users, '[]UserInfo', T.user)
        .struct(T.user, 'UserInfo', [['Username', GOB_TYPES.string]])
        .value(T.request, (message) => {
          strings(message);
          message.uint(1);
          message.uint(elements);
          for (let index = 0; index < elements; index++) message.uint(0);
          message.uint(0);
        })
        .toBuffer(),
    ),
    gob(
      'unknown field: []struct{} of a million',
      new GobStream()
        .struct(T.request, 'CreateProjectRequest', [...requestFields, ['Junk', T.junk]])
        .slice(T.junk, '[]Junk', T.junkItem)
        .struct(T.junkItem, 'Junk', [])
        .value(T.request, (message) => {
          strings(message);
          message.uint(1);
          message.uint(elements);
          for (let index = 0; index < elements; index++) message.uint(0);
          message.uint(0);
        })
        .toBuffer(),
    ),
    gob(
      'unknown field: []string of a million ""',
      new GobStream()
        .struct(T.request, 'CreateProjectRequest', [...requestFields, ['Junk', T.junk]])
        .slice(T.junk, '[]string', GOB_TYPES.string)
        .value(T.request, (message) => {
          strings(message);
          message.uint(1);
          message.uint(elements);
          for (let index = 0; index < elements; index++) message.uint(0);
          message.uint(0);
        })
        .toBuffer(),
    ),
    gob(
      'unknown field: []interface{} of a million nils',
      new GobStream()
        .struct(T.request, 'CreateProjectRequest', [...requestFields, ['Junk', T.junk]])
        .slice(T.junk, '[]interface {}', GOB_TYPES.interface)
        .value(T.request, (message) => {
          strings(message);
          message.uint(1);
          message.uint(elements);
          for (let index = 0; index < elements; index++) message.uint(0);
          message.uint(0);
        })
        .toBuffer(),
    ),
    gob(
      'unknown field: map[int]int of 500,000',
      new GobStream()
        .struct(T.request, 'CreateProjectRequest', [...requestFields, ['Junk', T.junk]])
        .map(T.junk, 'map[int]int', GOB_TYPES.int, GOB_TYPES.int)
        .value(T.request, (message) => {
          strings(message);
          message.uint(1);
          const entries = Math.floor(elements / 2);
          message.uint(entries);
          for (let index = 0; index < entries; index++) {
            message.int(0);
            message.int(0);
          }
          message.uint(0);
        })
        .toBuffer(),
    ),
    gob(
      'a struct type of 100,000 fields, none sent',
      new GobStream()
        .struct(T.request, 'CreateProjectRequest', [
          ...requestFields,
          ...Array.from({ length: 100_000 }, (_, index) => [index.toString(36), GOB_TYPES.int] as const),
        ])
        .value(T.request, (message) => {
          strings(message);
          message.uint(0);
        })
        .toBuffer(),
    ),
  ];
}

/** Every candidate, for a create under `parent`. */
export function worstCaseBodies(parent: string): WorstCaseBody[] {
  return [...jsonBodies(parent), ...xmlBodies(parent), ...gobBodies(parent)].map((body) => {
    if (body.body.length > 1024 * 1024)
      throw new Error(`${body.format} ${body.name}: ${body.body.length} bytes`);
    return body;
  });
}
