import type { RepeatableList } from '../body-codecs';
import type { ObjectShape, Shape } from '../representation-shape';
import { zeroValueOf } from '../representation-shape';
import { decodeGob, UNSENT_ZERO, type GobValue } from './decoder';
import { gobEncodingOf } from './encoder';
import { goFieldName } from './go-names';
import { GobWriter } from './primitives';

/** Bytes of encoded rows per write of a streamed list. */
const CHUNK_BYTES = 64 * 1024;

/**
 * A decoded gob value in the representation's JSON terms: Go field names
 * become JSON names, unknown fields are dropped. A field the sender's type
 * declares holds its value (its zero value when Go left it out, as Go always
 * does for "", false and empty slices); a field the sender's type does not have
 * stays absent, so the schema judges it as a field a JSON or XML client left
 * out (required: 400; optional: its default). Type mismatches are left as they
 * are for the schema's validation to name.
 */
function inShape(shape: Shape, value: GobValue): unknown {
  // The zero value in our own shape's terms: bounded by the representation, not the sender's type.
  if (value === UNSENT_ZERO) return zeroValueOf(shape);
  if (shape.kind === 'array')
    return Array.isArray(value) ? value.map((item) => inShape(shape.item, item)) : value;
  if (shape.kind !== 'object') return value;
  if (typeof value !== 'object' || Array.isArray(value) || Buffer.isBuffer(value) || value instanceof Map) {
    return value;
  }
  const present = shape.fields.flatMap((field) => {
    const fieldValue = value[goFieldName(field.name)];
    return fieldValue === undefined ? [] : [[field.name, inShape(field.shape, fieldValue)] as const];
  });
  return Object.fromEntries(present);
}

/** Decodes a gob request body into the JSON form of `shape` (throws GobFormatError). */
export function decodeGobRepresentation(body: Buffer, shape: ObjectShape): unknown {
  return inShape(shape, decodeGob(body).value);
}

/** Encodes one representation as a complete gob stream. */
export function encodeGobRepresentation(shape: ObjectShape, value: unknown): Buffer {
  const encoding = gobEncodingOf(shape);
  const message = new GobWriter(1024);
  message.int(encoding.typeId);
  encoding.writeStruct(message, value);
  const frame = new GobWriter(16);
  frame.uint(message.size);
  return Buffer.concat([encoding.definitions, frame.view(), message.view()]);
}

/**
 * Streams `{ [field]: items }` as one gob value. gob frames a value with its
 * byte length and a slice with its count, so a first pass over the snapshot
 * measures (encoding each row and dropping it) and a second pass writes: memory
 * stays one batch whatever the list's length.
 */
export async function streamGobList(
  shape: ObjectShape,
  field: string,
  list: RepeatableList,
  write: (chunk: Buffer) => Promise<void>,
): Promise<void> {
  const encoding = gobEncodingOf(shape);
  const index = encoding.fields.findIndex((plan) => plan.json === field);
  const listField = shape.fields[index];
  if (index < 0 || listField?.shape.kind !== 'array' || listField.shape.item.kind !== 'object') {
    throw new Error(`gob list: ${shape.name}.${field} is not a list of objects`);
  }
  const item = gobEncodingOf(listField.shape.item);
  const scratch = new GobWriter(4096);
  let count = 0;
  let itemBytes = 0;
  for await (const batch of list.batches()) {
    for (const row of batch) {
      scratch.reset();
      item.writeStruct(scratch, row);
      itemBytes += scratch.size;
      count += 1;
    }
  }
  const head = new GobWriter(32);
  head.int(encoding.typeId);
  if (count > 0) {
    // The fields before the list are zero in a streamed list: its delta is its field number + 1.
    head.uint(index + 1);
    head.uint(count);
  }
  const frame = new GobWriter(16);
  frame.uint(head.size + itemBytes + 1);
  await write(Buffer.concat([encoding.definitions, frame.view(), head.view()]));
  let written = 0;
  if (count > 0) {
    // One buffer, reused: written out (copied) whenever it holds a chunk's worth of rows.
    const chunk = new GobWriter(CHUNK_BYTES + 4096);
    for await (const batch of list.batches()) {
      for (const row of batch) {
        if (written === count) break;
        item.writeStruct(chunk, row);
        written += 1;
        if (chunk.size >= CHUNK_BYTES) {
          await write(chunk.toBuffer());
          chunk.reset();
        }
      }
    }
    if (chunk.size > 0) await write(chunk.toBuffer());
  }
  if (written !== count) throw new Error('gob list: the second pass saw a different list');
  await write(Buffer.from([0]));
}
