/**
 * Body codecs: one per media-type family. JSON is the only one registered now;
 * XML and gob plug in here (see negotiation.ts) without touching the routes.
 */
export interface BodyCodec {
  /** The media types this codec reads and writes; the first is the one it answers with. */
  mediaTypes: string[];
  /** Parses a request body; throws a 400 HttpError when malformed. */
  decode(body: Buffer): unknown;
  /** Encodes a representation (`name` is e.g. "ProjectFull"; formats with a root element need it). */
  encode(name: string, value: unknown): Buffer | string;
  /**
   * Encodes `{ [field]: [items…], ...trailer }` incrementally: `items` arrives in batches and each
   * piece is handed to `write` as soon as it is ready, so memory stays flat for any count.
   */
  encodeListStream(
    name: string,
    field: string,
    batches: AsyncIterable<unknown[]>,
    write: (chunk: string | Buffer) => Promise<void>,
  ): Promise<void>;
}
