import { useProjectService } from './app';
import { admin, createProject, rootUid, uniqueSlug } from './project-fixtures';

const service = useProjectService();
let root: string;
beforeAll(async () => {
  root = await rootUid(service);
});

// A Latin-1 "é" (0xE9), an overlong "/" (C0 AF), a lone continuation byte, a truncated sequence.
const INVALID_SEQUENCES = [[0xe9], [0xc0, 0xaf], [0x80], [0xe2, 0x82]];

/** Sends the bytes as they are (supertest would re-serialize a Buffer sent as JSON). */
async function sendRaw(method: 'POST' | 'PUT', path: string, contentType: string, body: Buffer) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { Authorization: admin(), 'Content-Type': contentType },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function withBytes(text: string, bytes: number[]): Buffer {
  const [before, after] = text.split('@@');
  return Buffer.concat([Buffer.from(before!, 'utf8'), Buffer.from(bytes), Buffer.from(after!, 'utf8')]);
}

describe('bodies that are not valid UTF-8', () => {
  it.each(INVALID_SEQUENCES)(
    'refuses JSON with the bytes %j inside a string with 400, storing nothing',
    async (...bytes) => {
      const slug = uniqueSlug();
      const body = withBytes(
        JSON.stringify({ slug, name: 'Caf@@', description: 'd', parent_uid: root }),
        bytes,
      );
      const response = await sendRaw('POST', '/projects', 'application/json', body);
      expect(response).toEqual({
        status: 400,
        body: { code: '400', message: 'malformed request body: not valid UTF-8' },
      });
      const list = await service.request
        .get('/projects')
        .query({ slug })
        .set('Authorization', admin())
        .expect(200);
      expect(list.body.projects).toEqual([]);
    },
  );

  it('refuses invalid UTF-8 in a settings update too, leaving the settings as they were', async () => {
    const project = await createProject(service, { parent_uid: root, mission_statement: 'kept' });
    const response = await sendRaw(
      'PUT',
      `/projects/${project.uid}/settings`,
      'application/json',
      withBytes('{"mission_statement":"bad @@ bytes"}', [0xff]),
    );
    expect(response.status).toBe(400);
    const settings = await service.request
      .get(`/projects/${project.uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    expect(settings.body.mission_statement).toBe('kept');
  });

  it('refuses invalid UTF-8 in XML the same way', async () => {
    const response = await service.request
      .post('/projects')
      .set('Authorization', admin())
      .set('Content-Type', 'application/xml')
      .send(
        withBytes(
          `<CreateProjectRequest><slug>${uniqueSlug()}</slug><name>Caf@@</name><description>d</description>` +
            `<parent_uid>${root}</parent_uid></CreateProjectRequest>`,
          [0xe9],
        ),
      )
      .expect(400);
    expect(response.body).toEqual({
      code: '400',
      message: 'malformed request body: the body is not valid UTF-8',
    });
  });

  it('still accepts multi-byte UTF-8 (é, 日本, 🙂) and stores it exactly', async () => {
    const name = 'Café 日本 🙂';
    const body = Buffer.from(
      JSON.stringify({ slug: uniqueSlug(), name, description: 'd', parent_uid: root }),
    );
    const response = await sendRaw('POST', '/projects', 'application/json', body);
    expect(response).toEqual({ status: 201, body: expect.objectContaining({ name }) });
  });
});
