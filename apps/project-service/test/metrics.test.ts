import { randomUUID } from 'node:crypto';
import { capturedLogLines, describeMetricsAccess, metricSample, scrapeMetrics } from '@repo/testing';
import { bearer, testAuthConfig, useProjectService } from './app';
import { admin, createProject, rootUid } from './project-fixtures';

const METRICS_TOKEN = 'metrics-token-for-tests-0123';
const { destination: logDestination, lines: logLines } = capturedLogLines();

const service = useProjectService(testAuthConfig, { logDestination, logLevel: 'info' });
const guarded = useProjectService(testAuthConfig, { metricsToken: METRICS_TOKEN });

describe('GET /metrics', () => {
  it('counts requests by route template, never by the raw path', async () => {
    const project = await createProject(service, { parent_uid: await rootUid(service) });
    await service.request.get(`/projects/${project.uid}`).set('Authorization', admin()).expect(200);
    await service.request.get(`/projects/${project.uid}/settings`).set('Authorization', admin()).expect(200);
    const text = await scrapeMetrics(service);
    expect(
      metricSample(text, 'http_requests_total', { method: 'GET', route: '/projects/:uid', status: '200' }),
    ).toBe(1);
    expect(
      metricSample(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/projects/:uid/settings',
      }),
    ).toBe(1);
    expect(
      metricSample(text, 'http_requests_total', { method: 'POST', route: '/projects', status: '201' }),
    ).toBe(1);
    expect(text).not.toContain(project.uid);
  });

  it('labels requests no route matched as one series', async () => {
    // A marker no metric's value can hold by chance (a number such as 4711 once matched a heap size).
    const marker = `unmatched-${randomUUID()}`;
    await service.request.get(`/no/such/path/${marker}`).expect(404);
    const text = await scrapeMetrics(service);
    expect(
      metricSample(text, 'http_requests_total', { route: '(unmatched)', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(marker);
  });

  it('labels a named statement by its first keyword, past its prepared mark', async () => {
    const project = await createProject(service, { parent_uid: await rootUid(service) });
    const count = async (statement: string) =>
      metricSample(await scrapeMetrics(service), 'db_query_duration_seconds_count', { statement }) ?? 0;
    const [withBefore, otherBefore] = [await count('WITH'), await count('OTHER')];
    // One statement, `/* prepared: project_read */ WITH RECURSIVE …` (query-counts.test.ts).
    await service.request.get(`/projects/${project.uid}`).set('Authorization', admin()).expect(200);
    expect(await count('WITH')).toBe(withBefore + 1);
    expect(await count('OTHER')).toBe(otherBefore);
  });

  it('shows database query latency, process metrics and the codec and authorization outcomes', async () => {
    await service.request
      .get('/projects?page_size=1')
      .set('Authorization', bearer('nobody-in-particular'))
      .set('Accept', 'application/xml')
      .expect(200);
    await service.request.get('/projects').set('Authorization', 'Bearer not-a-jwt').expect(401);
    const text = await scrapeMetrics(service);
    expect(metricSample(text, 'db_query_duration_seconds_count', { statement: 'SELECT' })).toBeGreaterThan(0);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(
      metricSample(text, 'project_service_codec_operations_total', {
        format: 'xml',
        direction: 'encode',
        outcome: 'ok',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      metricSample(text, 'project_service_codec_operations_total', {
        format: 'json',
        direction: 'decode',
        outcome: 'ok',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      metricSample(text, 'project_service_authentications_total', { outcome: 'rejected' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      metricSample(text, 'project_service_authorizations_total', { outcome: 'allowed' }),
    ).toBeGreaterThanOrEqual(1);
  });
});

describeMetricsAccess({
  service,
  logLines,
  guarded,
  metricsToken: METRICS_TOKEN,
  probePaths: ['/readyz', '/livez'],
  loggedPath: '/projects',
  authorization: admin(),
});
