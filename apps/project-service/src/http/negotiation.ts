import { notAcceptable, unsupportedMediaType, badRequest } from '@repo/http-errors';
import type { Request, RequestHandler, Response } from 'express';
import type { BodyCodec } from './body-codecs';
import { jsonCodec } from './json-codec';

/** The registered codecs; the first is the default for requests without Content-Type or Accept. */
const codecs: BodyCodec[] = [jsonCodec];

const allMediaTypes = codecs.flatMap((codec) => codec.mediaTypes);

function codecFor(mediaType: string): BodyCodec | undefined {
  return codecs.find((codec) => codec.mediaTypes.includes(mediaType));
}

/** The request body decoded by its Content-Type (JSON when absent); 415 for a type no codec reads. */
export function readBody(req: Request): unknown {
  const body: unknown = req.body;
  const raw = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
  const contentType = req.headers['content-type'];
  const mediaType = contentType ? req.is(allMediaTypes) : allMediaTypes[0];
  const codec = mediaType ? codecFor(mediaType) : undefined;
  if (!codec) throw unsupportedMediaType(`unsupported Content-Type; use one of ${allMediaTypes.join(', ')}`);
  if (raw.length === 0) throw badRequest('request body is required');
  return codec.decode(raw);
}

/** The codec the Accept header prefers (q-values honoured); 406 when it allows none. */
export function responseCodec(req: Request): BodyCodec {
  const accepted = req.accepts(allMediaTypes);
  const codec = accepted ? codecFor(accepted) : undefined;
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

function contentTypeOf(codec: BodyCodec): string {
  return `${codec.mediaTypes[0]}; charset=utf-8`;
}

/** Sends a representation in the negotiated format. */
export function sendRepresentation(
  req: Request,
  res: Response,
  status: number,
  name: string,
  value: unknown,
): void {
  const codec = responseCodec(req);
  // The body's format depends on Accept: caches must key on it.
  res.vary('Accept');
  res.status(status).setHeader('Content-Type', contentTypeOf(codec));
  res.send(codec.encode(name, value));
}

/** Sends an error body; when Accept allows nothing, the default format (a 406 must still say why). */
export function sendErrorRepresentation(req: Request, res: Response, status: number, value: unknown): void {
  const accepted = req.accepts(allMediaTypes);
  const codec = (accepted && codecFor(accepted)) || codecs[0]!;
  res.status(status).setHeader('Content-Type', contentTypeOf(codec));
  res.send(codec.encode('Error', value));
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
 * Streams a list representation. The first batch is fetched before the status line goes out,
 * so a failing database still gets a proper error response; later failures cut the connection.
 */
export async function streamListRepresentation(
  req: Request,
  res: Response,
  name: string,
  field: string,
  batches: AsyncIterable<unknown[]>,
): Promise<void> {
  const codec = responseCodec(req);
  const iterator = batches[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* all(): AsyncGenerator<unknown[]> {
    if (first.done) return;
    yield first.value;
    for (;;) {
      // Give the event loop a turn between batches: embedded PGlite runs its queries on this
      // thread, and without I/O turns nothing would reach the socket until the last batch.
      await new Promise((resolve) => setImmediate(resolve));
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  res.vary('Accept');
  res.status(200).setHeader('Content-Type', contentTypeOf(codec));
  try {
    await codec.encodeListStream(name, field, all(), writerFor(res));
    res.end();
  } catch (error) {
    // Headers are out: the only honest signal left is a broken connection.
    const message = error instanceof Error ? error.message : String(error);
    req.log.warn({ err: { message } }, 'list stream aborted');
    res.destroy();
    await iterator.return?.(undefined);
  }
}
