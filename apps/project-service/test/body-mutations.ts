import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { goldenDir } from './go-client';

/** The golden request and response bodies Go wrote (or read) in one format: seeds for mutation. */
export function seeds(format: 'gob' | 'xml'): Buffer[] {
  return readdirSync(goldenDir)
    .filter((file) => file.endsWith(`.${format}`))
    .map((file) => readFileSync(path.join(goldenDir, file)));
}

/** A golden body truncated, with bytes flipped, inserted or overwritten with large varints. */
export function mutated(bodies: Buffer[]) {
  return fc
    .record({
      body: fc.constantFrom(...bodies),
      cut: fc.nat(),
      edits: fc.array(
        fc.record({
          at: fc.nat(),
          // The value travels last, after the type definitions: aim half the edits at the tail.
          tail: fc.boolean(),
          kind: fc.constantFrom('flip', 'insert', 'delete', 'hostile-length'),
          byte: fc.integer({ min: 0, max: 255 }),
        }),
        { maxLength: 6 },
      ),
    })
    .map(({ body, cut, edits }) => {
      let bytes = [...body.subarray(0, body.length === 0 ? 0 : cut % (body.length + 1))];
      if (bytes.length === 0) bytes = [...body];
      for (const edit of edits) {
        const region = edit.tail ? Math.min(bytes.length, 96) : bytes.length;
        const at = bytes.length === 0 ? 0 : bytes.length - region + (edit.at % Math.max(region, 1));
        if (edit.kind === 'flip') bytes[at] = edit.byte;
        else if (edit.kind === 'insert') bytes.splice(at, 0, edit.byte);
        else if (edit.kind === 'delete') bytes.splice(at, 1);
        // 0xF8 announces an 8-byte unsigned integer: a length or count near 2^64.
        else bytes.splice(at, 0, 0xf8, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, edit.byte);
      }
      return Buffer.from(bytes);
    });
}
