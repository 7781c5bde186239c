import { randomUUID } from 'node:crypto';
import { capturedLogLines, describeMetricsAccess, metricSample, scrapeMetrics } from '@repo/testing';
import { countAttachmentBytes, countingStream } from '../src/http/attachment-metrics';
import { adminAuthorization, api, auth, createOrg, createUser } from './actors';
import { downloadPath, issueFixture, uploaded } from './attachment-fixtures';
import { useObservedCodeHostingApi } from './observed-app';

const METRICS_TOKEN = 'metrics-token-for-tests-0123';
const { destination: logDestination, lines: logLines } = capturedLogLines();

const service = useObservedCodeHostingApi({ logDestination, logLevel: 'info' });
const guarded = useObservedCodeHostingApi({ metricsToken: METRICS_TOKEN });

describe('GET /metrics', () => {
  it('counts requests by route template under /api/v1, never by the raw path', async () => {
    const alice = await createUser(service, 'metrics-alice');
    const org = await createOrg(service, alice);
    await service.request.get(`${api}/orgs/${org.name}`).expect(200);
    // A name no metric's value can hold by chance (a number such as 4711 could match a heap size).
    const missing = `no-such-org-${randomUUID()}`;
    await service.request.get(`${api}/orgs/${missing}`).expect(404);
    const text = await scrapeMetrics(service);
    expect(
      metricSample(text, 'http_requests_total', { method: 'GET', route: '/api/v1/orgs/:org', status: '200' }),
    ).toBe(1);
    // An error answered by the error handler keeps its route template.
    expect(
      metricSample(text, 'http_requests_total', { method: 'GET', route: '/api/v1/orgs/:org', status: '404' }),
    ).toBe(1);
    expect(
      metricSample(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/orgs' }),
    ).toBe(1);
    expect(text).not.toContain(org.name);
    expect(text).not.toContain(missing);
  });

  it('shows database query latency, process metrics and the attachment byte counters', async () => {
    countAttachmentBytes('in', 1000);
    const counted = countingStream('out');
    counted.resume();
    counted.end(Buffer.alloc(234));
    await new Promise((resolve) => counted.once('end', resolve));
    const text = await scrapeMetrics(service);
    expect(metricSample(text, 'db_query_duration_seconds_count', { statement: 'SELECT' })).toBeGreaterThan(0);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(
      metricSample(text, 'code_hosting_api_attachment_bytes_total', { direction: 'in' }),
    ).toBeGreaterThanOrEqual(1000);
    expect(
      metricSample(text, 'code_hosting_api_attachment_bytes_total', { direction: 'out' }),
    ).toBeGreaterThanOrEqual(234);
  });

  it('counts the bytes of a real upload (in) and download (out)', async () => {
    const text = await scrapeMetrics(service);
    const before = {
      in: metricSample(text, 'code_hosting_api_attachment_bytes_total', { direction: 'in' }) ?? 0,
      out: metricSample(text, 'code_hosting_api_attachment_bytes_total', { direction: 'out' }) ?? 0,
    };
    const issue = await issueFixture(service);
    const content = 'counted bytes\n'.repeat(300);
    const attachment = await uploaded(service, issue.assets, issue.owner.token, content, 'counted.txt');
    await service.request
      .get(downloadPath(attachment.browser_download_url))
      .set(...auth(issue.owner.token))
      .expect(200);
    // The folder of this app's storage stays empty for the apps that share it.
    await service.request
      .delete(`${issue.assets}/${attachment.id}`)
      .set(...auth(issue.owner.token))
      .expect(204);
    const after = await scrapeMetrics(service);
    expect({
      in: metricSample(after, 'code_hosting_api_attachment_bytes_total', { direction: 'in' }),
      out: metricSample(after, 'code_hosting_api_attachment_bytes_total', { direction: 'out' }),
    }).toEqual({ in: before.in + content.length, out: before.out + content.length });
  });
});

describeMetricsAccess({
  service,
  logLines,
  guarded,
  metricsToken: METRICS_TOKEN,
  probePaths: ['/readyz', '/api/healthz'],
  loggedPath: `${api}/user`,
  authorization: adminAuthorization,
});
