import type { GobWriter } from '../src/http/gob/primitives';
import { FIELD_LIMITS } from '../src/wire/schemas';
import { useProjectService } from './app';
import { GOB_TYPES, GobStream } from './gob-stream';
import { admin, rootUid, uniqueSlug } from './project-fixtures';

// gob bodies are read in the terms of the representation: a list longer than its field's bound,
// or a string whose byte length cannot fit its bound, is refused as its length is read, with the
// message a JSON client gets, and the rest is never read (a body that is garbage after that length
// gets the same answer); a string nearer its bound is judged by the schema with the rest of the
// body; a field the representation does not have is stepped over by its type, never decoded.
jest.setTimeout(60_000);
const service = useProjectService();
let root: string;
beforeAll(async () => {
  root = await rootUid(service);
});

/** Type ids of the streams (gob's first user id is 65). */
const T = { request: 65, users: 66, user: 67, junk: 68 } as const;
const REQUIRED = [
  ['Slug', GOB_TYPES.string],
  ['Name', GOB_TYPES.string],
  ['Description', GOB_TYPES.string],
  ['ParentUID', GOB_TYPES.string],
] as const;

/** A CreateProjectRequest with its required fields and `Extra` (type `extraType`), written by `writeExtra`. */
function request(
  extraType: number,
  define: (stream: GobStream) => GobStream,
  writeExtra: (m: GobWriter) => void,
) {
  const slug = uniqueSlug();
  const stream = define(
    new GobStream().struct(T.request, 'CreateProjectRequest', [...REQUIRED, ['Extra', extraType]]),
  );
  return stream
    .value(T.request, (message) => {
      for (const value of [slug, 'n', 'd', root]) {
        message.uint(1);
        message.string(value);
      }
      message.uint(1);
      writeExtra(message);
      message.uint(0);
    })
    .toBuffer();
}

/** The same, with the sender's list field named as ours: `Writers []UserInfo{Username string}`. */
function withWriters(writeWriters: (m: GobWriter) => void): Buffer {
  const slug = uniqueSlug();
  return new GobStream()
    .struct(T.request, 'CreateProjectRequest', [...REQUIRED, ['Writers', T.users]])
    .slice(T.users, '[]UserInfo', T.user)
    .struct(T.user, 'UserInfo', [['Username', GOB_TYPES.string]])
    .value(T.request, (message) => {
      for (const value of [slug, 'n', 'd', root]) {
        message.uint(1);
        message.string(value);
      }
      message.uint(1);
      writeWriters(message);
      message.uint(0);
    })
    .toBuffer();
}

function create(body: Buffer) {
  return service.request
    .post('/projects')
    .set('Authorization', admin())
    .set('Content-Type', 'application/gob')
    .send(body);
}

/** gob's bytes a bare 0xFF: never a valid continuation of anything the decoder reads. */
const GARBAGE = Buffer.alloc(32, 0xff);

describe('gob lists and strings past their bound', () => {
  it('answers a writers list of 1,040,000 items as a JSON client is answered for 301', async () => {
    const json = await service.request
      .post('/projects')
      .set('Authorization', admin())
      .send({
        slug: uniqueSlug(),
        name: 'n',
        description: 'd',
        parent_uid: root,
        writers: Array.from({ length: FIELD_LIMITS.members + 1 }, (_, index) => ({ username: `u${index}` })),
      })
      .expect(400);
    const gob = await create(
      withWriters((message) => {
        message.uint(1_040_000);
        for (let index = 0; index < 1_040_000; index++) message.uint(0);
      }),
    ).expect(400);
    expect(gob.body).toEqual({ code: '400', message: 'writers: must be at most 300 items' });
    expect(gob.body).toEqual(json.body);
  });

  it('refuses the declared count before reading any item: garbage after it gets the same answer', async () => {
    const response = await create(
      withWriters((message) => {
        message.uint(1_040_000);
        message.raw(GARBAGE);
      }),
    ).expect(400);
    expect(response.body).toEqual({ code: '400', message: 'writers: must be at most 300 items' });
  });

  it("refuses a writer's username declared a megabyte long before reading it", async () => {
    const response = await create(
      withWriters((message) => {
        message.uint(1); // one writer
        message.uint(1); // its Username
        message.uint(1_000_000);
        message.raw(GARBAGE);
      }),
    ).expect(400);
    expect(response.body).toEqual({
      code: '400',
      message: 'writers[0].username: must be at most 255 characters',
    });
  });

  it('counts a string in characters as JSON does: 255 two-byte characters pass, 256 letters do not', async () => {
    const username = (value: string) =>
      withWriters((message) => {
        message.uint(1);
        message.uint(1);
        message.string(value);
        message.uint(0);
      });
    await create(username('é'.repeat(255))).expect(201);
    const response = await create(username('u'.repeat(256))).expect(400);
    expect(response.body).toEqual({
      code: '400',
      message: 'writers[0].username: must be at most 255 characters',
    });
  });
});

describe('gob fields the representation does not have', () => {
  it('steps over an unknown field by its type without decoding it (bytes that are not UTF-8 in it do not matter)', async () => {
    const body = request(
      T.junk,
      (stream) => stream.slice(T.junk, '[]string', GOB_TYPES.string),
      (message) => {
        message.uint(2);
        message.bytes(Buffer.from([0xc0, 0xaf]));
        message.string('fine');
      },
    );
    const response = await create(body).expect(201);
    expect(response.body).toMatchObject({ name: 'n', description: 'd', parent_uid: root });
  });

  it('still checks an unknown field against the bytes present', async () => {
    const body = request(
      T.junk,
      (stream) => stream.slice(T.junk, '[]string', GOB_TYPES.string),
      (message) => {
        message.uint(1_000_000);
        message.raw(GARBAGE);
      },
    );
    const response = await create(body).expect(400);
    expect(response.body).toEqual({
      code: '400',
      message: 'malformed request body: gob: slice length exceeds the message',
    });
  });

  it('names a field of ours sent as another type, however large the value, as validation does', async () => {
    const slug = uniqueSlug();
    const body = new GobStream()
      .struct(T.request, 'CreateProjectRequest', [
        ['Slug', GOB_TYPES.string],
        ['Name', T.junk],
        ['Description', GOB_TYPES.string],
        ['ParentUID', GOB_TYPES.string],
      ])
      .slice(T.junk, '[]string', GOB_TYPES.string)
      .value(T.request, (message) => {
        message.uint(1);
        message.string(slug);
        message.uint(1);
        message.uint(100_000);
        for (let index = 0; index < 100_000; index++) message.string('');
        message.uint(1);
        message.string('d');
        message.uint(1);
        message.string(root);
        message.uint(0);
      })
      .toBuffer();
    const response = await create(body).expect(400);
    expect(response.body).toEqual({ code: '400', message: 'name: expected string' });
  });
});
