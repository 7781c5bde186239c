import { notAcceptable, unsupportedMediaType, badRequest } from '@repo/http-errors';
import type { Request, RequestHandler, Response } from 'express';
import type { BodyCodec, RepeatableList } from './body-codecs';
import { gobCodec } from './gob/gob-codec';
import { jsonCodec } from './json-codec';
import { codecOperations, formatOf } from './project-metrics';
import { representations, type RepresentationName } from './representations';
import { xmlCodec } from './xml/xml-codec';

/** The registered codecs; the first is the default for requests without Content-Type or Accept. */
const codecs: BodyCodec[] = [jsonCodec, xmlCodec, gobCodec];

/** Every media type a request body or a response may have, in the order the OpenAPI document lists them. */
export const BODY_MEDIA_TYPES: readonly string[] = codecs.map((codec) => codec.mediaTypes[0]!);

const allMediaTypes = codecs.flatMap((codec) => codec.mediaTypes);

function codecFor(mediaType: string): BodyCodec | undefined {
  return codecs.find((codec) => codec.mediaTypes.includes(mediaType));
}

/**
 * The request body decoded by its Content-Type (JSON when absent) into the JSON form of the
 * representation, ready for the same zod validation; 400 for an empty or missing body, 415 for a
 * type no codec reads.
 */
export function readBody(req: Request, representation: RepresentationName): unknown {
  const body: unknown = req.body;
  const raw = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
  // First: req.is() answers null for a request without a body (no Content-Length, no
  // Transfer-Encoding), which would make a missing body look like an unsupported type.
  if (raw.length === 0) throw badRequest('request body is required');
  const contentType = req.headers['content-type'];
  const mediaType = contentType ? req.is(allMediaTypes) : allMediaTypes[0];
  const codec = mediaType ? codecFor(mediaType) : undefined;
  if (!codec) throw unsupportedMediaType(`unsupported Content-Type; use one of ${allMediaTypes.join(', ')}`);
  const counted = { format: formatOf(codec), direction: 'decode' };
  try {
    const decoded = codec.decode(raw, representations[representation]);
    codecOperations.inc({ ...counted, outcome: 'ok' });
    return decoded;
  } catch (error) {
    codecOperations.inc({ ...counted, outcome: 'refused' });
    throw error;
  }
}

/**
 * The codec each Accept header seen picks (null: none acceptable). An Accept header is one of a
 * few strings a client library sends, and negotiating it (parsing, q-values) cost more than
 * encoding a project; headers longer than a client library's are negotiated every time.
 */
const negotiated = new Map<string, BodyCodec | null>();
const NEGOTIATED_HEADERS = 256;
const NEGOTIATED_HEADER_LENGTH = 256;

/** The codec the Accept header prefers (q-values honoured); null when it allows none. */
function acceptedCodec(req: Request): BodyCodec | null {
  const accept = req.headers.accept ?? '';
  let codec = negotiated.get(accept);
  if (codec === undefined) {
    const accepted = req.accepts(allMediaTypes);
    codec = (accepted && codecFor(accepted)) || null;
    if (accept.length <= NEGOTIATED_HEADER_LENGTH) {
      if (negotiated.size >= NEGOTIATED_HEADERS) negotiated.clear();
      negotiated.set(accept, codec);
    }
  }
  return codec;
}

/** The codec the Accept header prefers (q-values honoured); 406 when it allows none. */
export function responseCodec(req: Request): BodyCodec {
  const codec = acceptedCodec(req);
  if (!codec)
    throw notAcceptable(
      `none of the acceptable media types is available; this service produces ${allMediaTypes.join(', ')}`,
    );
  return codec;
}

/** Refuses (406) before the operation runs, so a write never happens for a client that cannot read the answer. */
export const requireAcceptableResponse: RequestHandler = (req, _res, next) => {
  responseCodec(req);
  next();
};

/**
 * Sends a representation in the negotiated format: status, headers and body in one write (no
 * body for HEAD). Written here rather than by Express's res.send, whose ETag, freshness and
 * charset steps the routes do themselves (etag.ts) or do not need.
 */
export function sendRepresentation(
  req: Request,
  res: Response,
  status: number,
  name: RepresentationName,
  value: unknown,
): void {
  const codec = responseCodec(req);
  const body = codec.encode(representations[name], value);
  // The body's format depends on Accept: caches must key on it.
  res.vary('Accept');
  res.statusCode = status;
  res.setHeader('Content-Type', codec.contentType);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  if (req.method === 'HEAD') res.end();
  else res.end(body);
  encodedBy(codec).inc();
}

/** Each codec's count of encoded responses (a labelled child made once, not per response). */
const encodedCounters = new Map<BodyCodec, { inc(): void }>();
function encodedBy(codec: BodyCodec): { inc(): void } {
  let counter = encodedCounters.get(codec);
  if (!counter) {
    counter = codecOperations.labels({ format: formatOf(codec), direction: 'encode', outcome: 'ok' });
    encodedCounters.set(codec, counter);
  }
  return counter;
}

/** Sends an error body; when Accept allows nothing, the default format (a 406 must still say why). */
export function sendErrorRepresentation(req: Request, res: Response, status: number, value: unknown): void {
  const codec = acceptedCodec(req) ?? codecs[0]!;
  res.vary('Accept');
  res.status(status).setHeader('Content-Type', codec.contentType);
  res.send(codec.encode(representations.Error, value));
  codecOperations.inc({ format: formatOf(codec), direction: 'encode', outcome: 'ok' });
}

/** Awaits the socket draining when the response buffer is full, so a slow client slows the producer. */
function writerFor(res: Response): (chunk: string | Buffer) => Promise<void> {
  return (chunk) =>
    new Promise<void>((resolve, reject) => {
      if (res.destroyed) {
        reject(new Error('client went away'));
        return;
      }
      if (res.write(chunk)) {
        resolve();
        return;
      }
      const onDrain = () => {
        res.off('close', onClose);
        resolve();
      };
      const onClose = () => {
        res.off('drain', onDrain);
        reject(new Error('client went away'));
      };
      res.once('drain', onDrain);
      res.once('close', onClose);
    });
}

/**
 * Yields `first` (when given) and then the rest of `rest`, giving the event loop a turn between
 * batches: embedded PGlite runs its queries on this thread, and without I/O turns nothing would
 * reach the socket until the last batch.
 */
async function* paced(
  rest: AsyncIterator<unknown[]>,
  first?: IteratorResult<unknown[]>,
): AsyncGenerator<unknown[]> {
  if (first) {
    if (first.done) return;
    yield first.value;
  }
  for (;;) {
    if (first) await new Promise((resolve) => setImmediate(resolve));
    first = await rest.next();
    if (first.done) return;
    yield first.value;
  }
}

/**
 * Streams a list representation. The first batch is fetched before the status line goes out,
 * so a failing database still gets a proper error response; later failures cut the connection.
 * Codecs that need the list twice (gob) get a second pass over the same `list`.
 */
export async function streamListRepresentation(
  req: Request,
  res: Response,
  name: RepresentationName,
  field: string,
  list: RepeatableList,
): Promise<void> {
  const codec = responseCodec(req);
  const firstPass = list.batches()[Symbol.asyncIterator]();
  const first = await firstPass.next();
  let passes = 0;
  const pacedList: RepeatableList = {
    batches: () => (passes++ === 0 ? paced(firstPass, first) : paced(list.batches()[Symbol.asyncIterator]())),
  };
  res.vary('Accept');
  res.status(200).setHeader('Content-Type', codec.contentType);
  try {
    await codec.encodeListStream(representations[name], field, pacedList, writerFor(res));
    res.end();
    codecOperations.inc({ format: formatOf(codec), direction: 'encode', outcome: 'ok' });
  } catch (error) {
    codecOperations.inc({ format: formatOf(codec), direction: 'encode', outcome: 'aborted' });
    // Headers are out: the only honest signal left is a broken connection.
    const message = error instanceof Error ? error.message : String(error);
    req.log.warn({ err: { message } }, 'list stream aborted');
    res.destroy();
    await firstPass.return?.(undefined);
  }
}

/** True when the Accept header chose a format that reads a streamed list twice (it needs a snapshot). */
export function listNeedsSnapshot(req: Request): boolean {
  return responseCodec(req).listNeedsTwoPasses;
}
