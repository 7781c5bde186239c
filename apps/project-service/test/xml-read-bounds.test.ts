import { XML_LIMITS } from '../src/http/xml/xml-decoder';
import { useProjectService } from './app';
import { admin, rootUid, uniqueSlug } from './project-fixtures';

// XML bodies are read in one streaming pass that stops at the first bound it reaches: attributes
// (per element and per document), the length of any piece of markup, a list longer than its
// field's bound and a text more than three times its bound (with the message a JSON client gets).
// Each is refused where the parser is when it is reached: a document that is malformed after that
// point gets the bound's answer. A text nearer its bound is judged with the rest of the body.
jest.setTimeout(60_000);
const service = useProjectService();
let root: string;
beforeAll(async () => {
  root = await rootUid(service);
});

const fields = () =>
  `<slug>${uniqueSlug()}</slug><name>n</name><description>d</description><parent_uid>${root}</parent_uid>`;

function create(xml: string) {
  return service.request
    .post('/projects')
    .set('Authorization', admin())
    .set('Content-Type', 'application/xml')
    .send(xml);
}

const attributes = (count: number, name = (index: number) => `a${index.toString(36)}`) =>
  Array.from({ length: count }, (_, index) => ` ${name(index)}=""`).join('');

/** A document cut off inside an element, after `head`: malformed wherever the parser reads on. */
const truncated = (head: string) => `${head}<description>never closed`;

describe('XML attributes', () => {
  it('refuses 110,000 attributes on one element', async () => {
    const response = await create(
      `<CreateProjectRequest${attributes(110_000)}>${fields()}</CreateProjectRequest>`,
    ).expect(400);
    expect(response.body).toEqual({
      code: '400',
      message: `malformed request body: more than ${XML_LIMITS.maxAttributesPerElement} attributes on one element`,
    });
  });

  it('counts them while parsing: the document after them is never read', async () => {
    const response = await create(
      truncated(`<CreateProjectRequest${attributes(XML_LIMITS.maxAttributesPerElement + 1)}>`),
    ).expect(400);
    expect(response.body.message).toBe(
      `malformed request body: more than ${XML_LIMITS.maxAttributesPerElement} attributes on one element`,
    );
  });

  it('accepts a few attributes and ignores them', async () => {
    const response = await create(
      `<CreateProjectRequest xmlns="urn:x"${attributes(3)}>${fields()}</CreateProjectRequest>`,
    ).expect(201);
    expect(response.body).toMatchObject({ name: 'n', description: 'd' });
  });

  it('bounds the attributes of the whole document', async () => {
    const perElement = XML_LIMITS.maxAttributesPerElement;
    const elements = Math.ceil(XML_LIMITS.maxAttributes / perElement) + 1;
    const junk = `<junk${attributes(perElement)}/>`.repeat(elements);
    const response = await create(`<CreateProjectRequest>${fields()}${junk}</CreateProjectRequest>`).expect(
      400,
    );
    expect(response.body.message).toBe(
      `malformed request body: more than ${XML_LIMITS.maxAttributes} attributes`,
    );
  });

  it('counts a repeated attribute too (its copies make one start tag too long)', async () => {
    const response = await create(truncated(`<CreateProjectRequest${attributes(20_000, () => 'a')}>`)).expect(
      400,
    );
    expect(response.body.message).toBe(
      `malformed request body: markup longer than ${XML_LIMITS.maxMarkupLength} characters`,
    );
  });
});

describe('XML markup and text lengths', () => {
  it('refuses an element name of 100,000 characters before it ends', async () => {
    const response = await create(
      truncated(`<CreateProjectRequest>${fields()}<${'x'.repeat(100_000)}`),
    ).expect(400);
    expect(response.body.message).toBe(
      `malformed request body: markup longer than ${XML_LIMITS.maxMarkupLength} characters`,
    );
  });

  it('refuses a comment of 100,000 characters before it ends', async () => {
    const response = await create(`<CreateProjectRequest>${fields()}<!--${'c'.repeat(100_000)}`).expect(400);
    expect(response.body.message).toBe(
      `malformed request body: markup longer than ${XML_LIMITS.maxMarkupLength} characters`,
    );
  });

  it('refuses a description far past its bound while reading it, as a JSON client is answered', async () => {
    const response = await create(
      `<CreateProjectRequest><slug>${uniqueSlug()}</slug><description>${'&amp;'.repeat(100_000)}`,
    ).expect(400);
    expect(response.body).toEqual({ code: '400', message: 'description: must be at most 8000 characters' });
  });

  it('refuses the 301st writer when it opens, however the document goes on', async () => {
    const writers = '<writers><username>u</username></writers>'.repeat(301);
    const response = await create(truncated(`<CreateProjectRequest>${writers}`)).expect(400);
    expect(response.body).toEqual({ code: '400', message: 'writers: must be at most 300 items' });
  });

  it("names a writer's username past its bound by its place in the list, with the body's other issues", async () => {
    const writers = `<writers><username>a</username></writers><writers><username>${'u'.repeat(256)}</username></writers>`;
    const response = await create(
      `<CreateProjectRequest>${fields().replace('<name>n</name>', '')}${writers}</CreateProjectRequest>`,
    ).expect(400);
    expect(response.body).toEqual({
      code: '400',
      message: 'name: is required; writers[1].username: must be at most 255 characters',
    });
  });

  it('accepts text at its bound, in pieces split by comments, entities and CDATA', async () => {
    const description = `${'d'.repeat(3000)}<!-- a comment -->${'&amp;'.repeat(1000)}<![CDATA[${'c'.repeat(4000)}]]>`;
    const response = await create(
      `<CreateProjectRequest><slug>${uniqueSlug()}</slug><name>n</name><parent_uid>${root}</parent_uid>` +
        `<description>${description}</description></CreateProjectRequest>`,
    ).expect(201);
    expect(response.body.description).toBe(`${'d'.repeat(3000)}${'&'.repeat(1000)}${'c'.repeat(4000)}`);
  });
});
