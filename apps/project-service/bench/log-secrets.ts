/**
 * What masking credentials costs a logged request: the access log's request serializer
 * (redactedRequest) on a typical request, and the whole access line written by the service's
 * logger (serializer, pino, and the last-line scrub) to a sink that drops it.
 * Run: npx tsx bench/log-secrets.ts. Prints the CPU microseconds per request (the least of
 * BENCH_ROUNDS batches, 25 by default).
 */
import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { redactedRequest, type SerializedRequest } from '../src/log-secrets';
import { createLogger } from '../src/logger';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);
const BATCH = 20_000;

const jwt =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJwcmluY2lwYWwiOiJhZG1pbi1hbGljZSIsImlhdCI6MTczMjc5MDAwMCwiZXhwIjoxNzMyNzkwMzAwfQ.1kR6m4wq1c6Yd2bJd3p8pW6v9JH8m0Qy3y3pZl2o7Ss';

function typicalRequest(): SerializedRequest {
  const uid = randomUUID();
  return {
    id: randomUUID(),
    method: 'GET',
    url: `/projects/${uid}/children?page_size=20&slug=root`,
    query: { page_size: '20', slug: 'root' },
    params: { uid },
    headers: {
      host: 'project-service.internal:8080',
      'user-agent': 'Go-http-client/1.1',
      accept: 'application/json',
      'accept-encoding': 'gzip',
      authorization: `Bearer ${jwt}`,
      'x-request-id': randomUUID(),
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    },
    remoteAddress: '10.0.3.17',
    remotePort: 51234,
  };
}

/** The least CPU time one run took over `ROUNDS` batches: what the work costs, whatever else the machine runs. */
function perOp(label: string, run: () => void): void {
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.cpuUsage();
    for (let i = 0; i < BATCH; i++) run();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / BATCH);
  }
  console.log(`${label.padEnd(44)} ${best.toFixed(2)} µs of CPU`);
}

const requests = Array.from({ length: 64 }, typicalRequest);
let next = 0;
const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
const logger = createLogger('info', sink);

perOp('redactedRequest (typical request)', () => {
  redactedRequest(requests[next++ & 63]!);
});
perOp('access line: serializer + pino + scrub', () => {
  const req = requests[next++ & 63]!;
  logger.info(
    {
      request_id: req.id,
      req: redactedRequest(req),
      res: {
        statusCode: 200,
        headers: { 'content-type': 'application/json', etag: '"3"', 'x-request-id': req.id },
      },
      responseTime: 3,
    },
    'request completed',
  );
});
