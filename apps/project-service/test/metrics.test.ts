import { Writable } from 'node:stream';
import { bearer, testAuthConfig, useProjectService } from './app';
import { admin, createProject, rootUid } from './project-fixtures';

const METRICS_TOKEN = 'metrics-token-for-tests-0123';
const logLines: string[] = [];
const logDestination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

const service = useProjectService(testAuthConfig, { logDestination, logLevel: 'info' });
const guarded = useProjectService(testAuthConfig, { metricsToken: METRICS_TOKEN });

async function scrape(): Promise<string> {
  const response = await service.request.get('/metrics').expect(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain/);
  return response.text;
}

function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text
    .split('\n')
    .find(
      (candidate) => candidate.startsWith(`${name}{`) && wanted.every((label) => candidate.includes(label)),
    );
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

describe('GET /metrics', () => {
  it('counts requests by route template, never by the raw path', async () => {
    const project = await createProject(service, { parent_uid: await rootUid(service) });
    await service.request.get(`/projects/${project.uid}`).set('Authorization', admin()).expect(200);
    await service.request.get(`/projects/${project.uid}/settings`).set('Authorization', admin()).expect(200);
    const text = await scrape();
    expect(
      sample(text, 'http_requests_total', { method: 'GET', route: '/projects/:uid', status: '200' }),
    ).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/projects/:uid/settings',
      }),
    ).toBe(1);
    expect(sample(text, 'http_requests_total', { method: 'POST', route: '/projects', status: '201' })).toBe(
      1,
    );
    expect(text).not.toContain(project.uid);
  });

  it('labels requests no route matched as one series', async () => {
    await service.request.get('/no/such/path/4711').expect(404);
    const text = await scrape();
    expect(
      sample(text, 'http_requests_total', { route: '(unmatched)', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('4711');
  });

  it('shows database query latency, process metrics and the codec and authorization outcomes', async () => {
    await service.request
      .get('/projects?page_size=1')
      .set('Authorization', bearer('nobody-in-particular'))
      .set('Accept', 'application/xml')
      .expect(200);
    await service.request.get('/projects').set('Authorization', 'Bearer not-a-jwt').expect(401);
    const text = await scrape();
    expect(sample(text, 'db_query_duration_seconds_count', { statement: 'SELECT' })).toBeGreaterThan(0);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(
      sample(text, 'project_service_codec_operations_total', {
        format: 'xml',
        direction: 'encode',
        outcome: 'ok',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'project_service_codec_operations_total', {
        format: 'json',
        direction: 'decode',
        outcome: 'ok',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'project_service_authentications_total', { outcome: 'rejected' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'project_service_authorizations_total', { outcome: 'allowed' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('needs no caller token, and stays out of the access log like the probes', async () => {
    const before = logLines.length;
    await service.request.get('/metrics').expect(200);
    await service.request.get('/readyz').expect(200);
    await service.request.get('/livez').expect(200);
    await service.request.get('/projects').set('Authorization', admin()).expect(200);
    const lines = logLines.slice(before).map((line) => JSON.parse(line) as { req?: { url?: string } });
    expect(lines.map((line) => line.req?.url)).toEqual(['/projects']);
  });

  it('with METRICS_TOKEN set, answers only that bearer token', async () => {
    await guarded.request.get('/metrics').expect(401);
    await guarded.request.get('/metrics').set('Authorization', admin()).expect(401);
    await guarded.request.get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
  });
});
