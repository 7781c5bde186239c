import net from 'node:net';

// HTTP/1.1 written byte by byte on a socket of its own: for what supertest and Node's client
// refuse or rewrite (invalid UTF-8 bodies sent as they are, raw paths such as `%` or `%C0%AF`,
// CR/LF or NUL in header values, repeated headers).

export interface RawRequest {
  method: string;
  /** The request target exactly as written on the request line. */
  path: string;
  /** Written as given, in order; Host, Content-Length (unless Transfer-Encoding is given) and Connection are added. */
  headers?: [string, string][];
  body?: Buffer | string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

function decodeChunked(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset < body.length) {
    const lineEnd = body.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = parseInt(body.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function parseResponse(raw: Buffer): RawResponse {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0) throw new Error(`no complete response (${raw.length} bytes received)`);
  const [statusLine = '', ...headerLines] = raw.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(statusLine.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(headEnd + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = decodeChunked(body);
  let json: unknown;
  try {
    json = body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined;
  } catch {
    json = undefined;
  }
  return { status, headers, body, json };
}

/** Sends one request on a fresh connection and reads the answer until the server closes it. */
export function rawHttp(baseUrl: string, request: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const lines = [`${request.method} ${request.path} HTTP/1.1`, `Host: ${url.host}`];
  for (const [name, value] of request.headers ?? []) lines.push(`${name}: ${value}`);
  const chunked = (request.headers ?? []).some(([name]) => name.toLowerCase() === 'transfer-encoding');
  // A chunked body is written as given (its framing included), without a Content-Length.
  if (body && !chunked) lines.push(`Content-Length: ${body.length}`);
  lines.push('Connection: close', '', '');
  const head = Buffer.from(lines.join('\r\n'), 'latin1');
  return new Promise((resolve, reject) => {
    const received: Buffer[] = [];
    const socket = net.connect(Number(url.port), url.hostname);
    socket.setTimeout(20_000, () => socket.destroy(new Error('no answer within 20 s')));
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    // The server may answer and close before it read everything (413): what came back counts.
    socket.on('error', (error) => {
      if (received.length === 0) reject(error);
    });
    socket.on('close', () => {
      if (received.length === 0) return reject(new Error('connection closed without an answer'));
      try {
        resolve(parseResponse(Buffer.concat(received)));
      } catch (error) {
        reject(error as Error);
      }
    });
    socket.write(body ? Buffer.concat([head, body]) : head);
  });
}
