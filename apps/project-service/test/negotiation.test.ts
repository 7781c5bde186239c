import { useProjectService } from './app';
import { admin, rootUid, uniqueSlug } from './project-fixtures';
import { clientEncode, rawBytes } from './wire-formats';

// Content negotiation across the formats: which media types a request may send, which an
// Accept header picks, and what is refused before any write.
const service = useProjectService();
let root: string;
beforeAll(async () => {
  root = await rootUid(service);
});

async function jsonOf(path: string): Promise<Record<string, unknown>> {
  const response = await service.request.get(path).set('Authorization', admin()).expect(200);
  return response.body as Record<string, unknown>;
}

describe('negotiation', () => {
  it('reads text/xml and application/x-gob request bodies', async () => {
    for (const [contentType, format] of [
      ['text/xml', 'xml'],
      ['application/x-gob', 'gob'],
    ] as const) {
      const request = { slug: uniqueSlug(), name: 'alias', description: '', parent_uid: root };
      const response = await service.request
        .post('/projects')
        .set('Authorization', admin())
        .set('Content-Type', contentType)
        .send(clientEncode('CreateProjectRequest', format, request))
        .expect(201);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toMatchObject(request);
    }
  });

  it.each([
    ['application/json;q=0.5, application/gob', 'application/gob'],
    ['application/gob;q=0.1, application/xml;q=0.9', 'application/xml; charset=utf-8'],
    ['text/xml', 'application/xml; charset=utf-8'],
    ['application/x-gob', 'application/gob'],
    ['*/*', 'application/json; charset=utf-8'],
    ['application/*;q=0.2, application/xml', 'application/xml; charset=utf-8'],
  ])('Accept %s answers %s', async (accept, contentType) => {
    const response = await service.request
      .get(`/projects/${root}`)
      .set('Authorization', admin())
      .set('Accept', accept)
      .buffer(true)
      .parse(rawBytes)
      .expect(200);
    expect(response.headers['content-type']).toBe(contentType);
  });

  it('answers an Accept it cannot meet with 406, in JSON, before any write', async () => {
    const slug = uniqueSlug();
    const response = await service.request
      .post('/projects')
      .set('Authorization', admin())
      .set('Accept', 'text/html, application/yaml')
      .send({ slug, name: 'never', description: '', parent_uid: root })
      .expect(406);
    expect(response.body).toMatchObject({ code: '406' });
    expect(response.body.message).toContain('application/gob');
    expect((await jsonOf(`/projects?slug=${slug}`))['projects']).toEqual([]);
  });

  it('answers a Content-Type no codec reads with 415, naming the three', async () => {
    const response = await service.request
      .post('/projects')
      .set('Authorization', admin())
      .set('Content-Type', 'application/yaml')
      .send('slug: x')
      .expect(415);
    expect(response.body.message).toContain('application/json, application/xml, text/xml, application/gob');
  });

  it('refuses XML with a DOCTYPE (entity expansion) before any work', async () => {
    const body =
      '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>' +
      `<r><slug>${uniqueSlug()}</slug><name>&b;</name><parent_uid>${root}</parent_uid></r>`;
    const response = await service.request
      .post('/projects')
      .set('Authorization', admin())
      .set('Content-Type', 'application/xml')
      .send(body)
      .expect(400);
    expect(response.body.message).toMatch(/DOCTYPE/i);
  });

  it('accepts any root element name and ignores unknown elements, nested or not', async () => {
    const slug = uniqueSlug();
    const body =
      `<Anything><slug>${slug}</slug><name>Any root</name><description></description>` +
      `<unknown><deep>x</deep></unknown><parent_uid>${root}</parent_uid>` +
      '<writers><username>u1</username><extra>ignored</extra></writers></Anything>';
    const response = await service.request
      .post('/projects')
      .set('Authorization', admin())
      .set('Content-Type', 'application/xml')
      .send(body)
      .expect(201);
    expect(response.body).toMatchObject({
      slug,
      name: 'Any root',
    });
    expect(response.body.writers).toEqual([{ username: 'u1' }]);
  });
});
