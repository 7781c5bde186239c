import { readFileSync } from 'node:fs';
import path from 'node:path';
import { useProjectService } from './app';
import { admin, rootUid } from './project-fixtures';

// Bodies a Go client writes with a struct of its own (test/fixtures/gob/generate.go): fields our
// representation does not have are dropped, and what the sender's type declares but left unsent
// costs nothing to decode, however large or recursive that type is.
jest.setTimeout(30_000);
const service = useProjectService();
const PLACEHOLDER_PARENT = '00000000-0000-4000-8000-000000000000';

/** A fixture body, its placeholder parent uid (same length) replaced by the root's. */
async function body(name: string): Promise<Buffer> {
  const bytes = readFileSync(path.join(__dirname, 'fixtures', 'gob', name));
  const at = bytes.indexOf(PLACEHOLDER_PARENT);
  if (at < 0) throw new Error(`${name} has no placeholder parent uid`);
  const root = await rootUid(service);
  return Buffer.concat([bytes.subarray(0, at), Buffer.from(root), bytes.subarray(at + root.length)]);
}

async function createFrom(name: string) {
  return service.request
    .post('/projects')
    .set('Authorization', admin())
    .set('Content-Type', 'application/gob')
    .send(await body(name));
}

describe('gob bodies whose type declares fields the sender left unsent', () => {
  it('creates a project from a type with ten levels of unsent nested structs beside the fields', async () => {
    const response = await createFrom('wide-unsent-structs.gob');
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ slug: 'wide-unsent', name: 'Wide', description: 'd' });
  });

  it('creates a project from a type that refers to itself through a nil pointer', async () => {
    const response = await createFrom('self-referential.gob');
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ slug: 'self-ref', name: 'Chain', description: 'd' });
  });
});
