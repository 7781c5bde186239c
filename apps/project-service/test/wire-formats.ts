import type { Response } from 'supertest';
import { decodeGobRepresentation, encodeGobRepresentation } from '../src/http/gob/representation';
import { zeroValueOf, type Shape } from '../src/http/representation-shape';
import { representations, type RepresentationName } from '../src/http/representations';
import { decodeXmlRepresentation, XML_LIMITS } from '../src/http/xml/xml-decoder';
import { encodeXmlRepresentation } from '../src/http/xml/xml-encoder';
import { goAvailable, goDecode, goEncode } from './go-client';

export type WireFormat = 'xml' | 'gob';

export const MEDIA_TYPES: Record<WireFormat, string> = { xml: 'application/xml', gob: 'application/gob' };
/** The exact Content-Type of the service's responses in each format. */
export const RESPONSE_CONTENT_TYPES: Record<WireFormat, string> = {
  xml: 'application/xml; charset=utf-8',
  gob: 'application/gob',
};

/** A representation with every field present, as the Go client prints what it decoded. */
export function filled(shape: Shape, value: unknown): unknown {
  if (value === undefined) return zeroValueOf(shape);
  if (shape.kind === 'array') return (value as unknown[]).map((item) => filled(shape.item, item));
  if (shape.kind !== 'object') return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    shape.fields.map((field) => [field.name, filled(field.shape, record[field.name])]),
  );
}

/**
 * A request body as a Go client writes it: the real encoding/xml and encoding/gob when Go is
 * installed (always in CI), else this service's own encoders (checked against Go's bytes by the
 * golden files).
 */
export function clientEncode(representation: RepresentationName, format: WireFormat, json: unknown): Buffer {
  if (goAvailable) return goEncode(representation, format, json);
  const shape = representations[representation];
  return format === 'gob' ? encodeGobRepresentation(shape, json) : encodeXmlRepresentation(shape, json);
}

/** A response body as a Go client reads it (every field present, in JSON terms). */
export function clientDecode(representation: RepresentationName, format: WireFormat, body: Buffer): unknown {
  if (goAvailable) return goDecode(representation, format, body);
  const shape = representations[representation];
  // A client reading a response is not held to the service's request-body limits (a list of
  // projects with members nests deeper than any request body may).
  const decoded =
    format === 'gob'
      ? decodeGobRepresentation(body, shape)
      : decodeXmlRepresentation(body, shape, { ...XML_LIMITS, maxDepth: 16, maxElements: 10_000_000 });
  return filled(shape, decoded);
}

/** supertest parser keeping the body as raw bytes, whatever its Content-Type. */
export function rawBytes(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
  res.on('error', (error: Error) => done(error, Buffer.alloc(0)));
}
