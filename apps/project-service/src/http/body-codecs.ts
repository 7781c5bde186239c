import type { ObjectShape } from './representation-shape';

/** Rows of a list that can be read more than once, from one database snapshot. */
export interface RepeatableList {
  /** A fresh pass over the rows, in list order, a batch at a time. */
  batches(): AsyncIterable<unknown[]>;
}

/**
 * Body codecs: one per media-type family (JSON, XML, gob). negotiation.ts picks
 * one by Content-Type for the request and by Accept for the response; the
 * routes never see which.
 */
export interface BodyCodec {
  /** The media types this codec reads (and that Accept may name); the first is its canonical one. */
  mediaTypes: string[];
  /** The exact Content-Type of its responses. */
  contentType: string;
  /** True when a streamed list must be read twice (gob writes the byte length and count first). */
  listNeedsTwoPasses: boolean;
  /** Parses a request body into the JSON form of `shape`; throws a 400 HttpError when malformed. */
  decode(body: Buffer, shape: ObjectShape): unknown;
  /** Encodes a representation of `shape` (its name is the XML root element, the gob type name). */
  encode(shape: ObjectShape, value: unknown): Buffer | string;
  /**
   * Encodes `{ [field]: [items…] }` incrementally: each piece goes to `write` as soon as it is
   * ready, so memory stays one batch whatever the count.
   */
  encodeListStream(
    shape: ObjectShape,
    field: string,
    list: RepeatableList,
    write: (chunk: string | Buffer) => Promise<void>,
  ): Promise<void>;
}
