import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { httpRequest } from '../service-process';
import type { Operation, Outcome, Phase } from './history';

// The soak's clients' HTTP: every request becomes an operation of the history, recorded when it is
// sent and completed with what came back (or why nothing did), whatever happens. Each request goes
// to the replica the cluster picks (the ready ones in turn), as a load balancer would send it.

export interface SoakRequest {
  /** The workload's name for the operation (`put-base`, `get-org`, …). */
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** A JSON body. */
  json?: unknown;
  /** A multipart/form-data body with one file part. */
  file?: { field: string; fileName: string; content: Buffer; contentType?: string };
}

/** Where requests go: the ready replicas' URLs. */
export interface Router {
  /** A replica to send to (in turn among the ready ones), and its URL. */
  pick(): { index: number; baseUrl: string };
}

/** How long one request may take before it counts as unanswered. */
export const REQUEST_TIMEOUT_MS = 30_000;

function multipart(file: NonNullable<SoakRequest['file']>): { body: Buffer; contentType: string } {
  const boundary = `soak${randomBytes(12).toString('hex')}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.fileName}"\r\n` +
    `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), file.content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

function parsed(text: string | undefined): unknown {
  if (text === undefined || text === '') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
  }
}

/** 2xx: acknowledged; 4xx or a refused connection: refused; anything else: unknown. */
export function outcomeOf(status: number | undefined, error: string | undefined): Outcome {
  if (status !== undefined && error === undefined) {
    if (status < 400) return 'ok';
    if (status < 500) return 'fail';
    return 'unknown';
  }
  return error === 'ECONNREFUSED' ? 'fail' : 'unknown';
}

export class HistoryRecorder {
  readonly operations: Operation[] = [];
  phase: Phase = 'setup';
  private nextId = 1;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  private readonly runId = randomBytes(3).toString('hex');

  /** `now`: the history's clock, in milliseconds since the run began. */
  constructor(
    private readonly router: Router,
    readonly now: () => number,
  ) {}

  /** Sends one request and records it; never throws for what the network or the service does. */
  async send(client: number, request: SoakRequest): Promise<Operation> {
    const id = this.nextId++;
    const { index, baseUrl } = this.router.pick();
    const headers: Record<string, string> = {
      ...request.headers,
      'X-Request-Id': `soak-${this.runId}-${id}`,
    };
    let body: Buffer | undefined;
    let describedRequest: unknown;
    if (request.json !== undefined) {
      body = Buffer.from(JSON.stringify(request.json));
      headers['Content-Type'] = 'application/json';
      describedRequest = request.json;
    } else if (request.file) {
      const form = multipart(request.file);
      body = form.body;
      headers['Content-Type'] = form.contentType;
      describedRequest = { [request.file.field]: request.file.fileName, bytes: request.file.content.length };
    }
    if (body) headers['Content-Length'] = String(body.length);
    const op: Operation = {
      id,
      client,
      phase: this.phase,
      name: request.name,
      replica: index,
      requestId: headers['X-Request-Id']!,
      method: request.method,
      path: request.path,
      ...(describedRequest === undefined ? {} : { request: describedRequest }),
      invokedAt: this.now(),
      completedAt: Number.NaN,
      outcome: 'unknown',
    };
    this.operations.push(op);
    const answer = await httpRequest(baseUrl, this.agent, request.method, request.path, {
      headers,
      ...(body ? { body } : {}),
      timeoutMs: REQUEST_TIMEOUT_MS,
    });
    op.completedAt = this.now();
    if (answer.status !== undefined) op.status = answer.status;
    if (answer.error !== undefined) op.error = answer.error;
    const etag = answer.headers?.['etag'];
    if (typeof etag === 'string') op.etag = etag;
    const response = parsed(answer.body);
    if (response !== undefined) op.response = response;
    op.outcome = outcomeOf(answer.status, answer.error);
    return op;
  }

  close(): void {
    this.agent.destroy();
  }
}
