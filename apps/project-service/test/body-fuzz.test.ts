import fc from 'fast-check';
import { useProjectService } from './app';
import { mutated, seeds } from './body-mutations';
import { admin, createProject, rootUid } from './project-fixtures';
import { MEDIA_TYPES, clientDecode, rawBytes, type WireFormat } from './wire-formats';

// Malformed, truncated and mutated XML and gob bodies sent through HTTP to every
// operation that reads a body: the service answers each with success or a 400
// (409 when a mutation happens to repeat a slug), in the format asked for, and
// never a 5xx. FUZZ_RUNS raises the number of cases.
const RUNS = Math.max(1, Math.floor(Number(process.env.FUZZ_RUNS ?? 3000) / 10));
// Bounded by the number of cases, not by time: about 8 s per format alone, several times that
// beside the other suites on a 2-core CI machine.
jest.setTimeout(120_000);
const service = useProjectService();

describe.each(['xml', 'gob'] as const)('%s bodies through HTTP', (format: WireFormat) => {
  // Each test makes the project it writes to, so it passes or fails alone, in any order.
  it('answers mutated and truncated bodies with success or a 400 Error body, never a 5xx, and leaves the project readable', async () => {
    const target = (await createProject(service, { parent_uid: await rootUid(service) })).uid;
    const operations = [
      { method: 'post', path: () => '/projects', ok: 201 },
      { method: 'put', path: () => `/projects/${target}`, ok: 200 },
      { method: 'put', path: () => `/projects/${target}/settings`, ok: 200 },
    ] as const;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(mutated(seeds(format)), fc.constantFrom(...operations), async (body, operation) => {
        const response = await service.request[operation.method](operation.path())
          .set('Authorization', admin())
          .set('Content-Type', MEDIA_TYPES[format])
          .set('Accept', MEDIA_TYPES[format])
          .buffer(true)
          .parse(rawBytes)
          .send(body);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect([operation.ok, 400, 409]).toContain(response.status);
        const failed = response.status >= 400;
        const decoded = clientDecode(failed ? 'Error' : 'ProjectBase', format, response.body as Buffer) as {
          code?: string;
          uid?: string;
        };
        // An error decodes as the Error body naming its status; a success as a representation with a uid.
        expect(failed ? decoded.code : typeof decoded.uid).toBe(failed ? String(response.status) : 'string');
      }),
      { numRuns: RUNS },
    );
    // The mutations must reach the decoders' failures, not only bodies that still decode.
    expect(statuses.get(400) ?? 0).toBeGreaterThan(RUNS / 10);

    // The project the mutated bodies were written to is still readable in the format.
    const response = await service.request
      .get(`/projects/${target}`)
      .set('Authorization', admin())
      .set('Accept', MEDIA_TYPES[format])
      .buffer(true)
      .parse(rawBytes)
      .expect(200);
    expect(clientDecode('ProjectBase', format, response.body as Buffer)).toMatchObject({ uid: target });
  });
});
