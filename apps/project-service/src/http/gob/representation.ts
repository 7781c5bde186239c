import type { RepeatableList } from '../body-codecs';
import type { ObjectShape } from '../representation-shape';
import { decodeGob } from './decoder';
import { gobEncodingOf } from './encoder';
import { GobWriter } from './primitives';

/** Bytes of encoded rows per write of a streamed list. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Decodes a gob request body into the JSON form of `shape` (decoder.ts: Go field names become JSON
 * names, fields we do not have are skipped, lists and strings are bounded as their length is read);
 * throws GobFormatError, or the schema's error for a value past its bound.
 */
export function decodeGobRepresentation(body: Buffer, shape: ObjectShape): unknown {
  return decodeGob(body, shape);
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
