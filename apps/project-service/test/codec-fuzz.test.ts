import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { decodeGobRepresentation } from '../src/http/gob/representation';
import { GobFormatError } from '../src/http/gob/gob-format-error';
import { representations, type RepresentationName } from '../src/http/representations';
import { decodeXmlRepresentation, XmlFormatError } from '../src/http/xml/xml-decoder';
import { goldenDir } from './go-client';

// Malformed, truncated and mutated bodies thrown straight at the decoders: each either
// decodes or fails with the codec's format error (a 400), never anything else, and never
// slowly. FUZZ_RUNS raises the number of cases; the HTTP-level fuzz covers the wiring.
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const requestShapes = (
  ['CreateProjectRequest', 'UpdateProjectBaseRequest', 'UpdateProjectSettingsRequest'] as const
).map((name: RepresentationName) => representations[name]);

function seeds(format: 'gob' | 'xml'): Buffer[] {
  return readdirSync(goldenDir)
    .filter((file) => file.endsWith(`.${format}`))
    .map((file) => readFileSync(path.join(goldenDir, file)));
}

/** A golden body truncated, with bytes flipped, inserted or overwritten with large varints. */
function mutated(bodies: Buffer[]) {
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

function expectOnlyFormatErrors(decode: () => unknown, errorClass: new (...args: never[]) => Error): void {
  try {
    decode();
  } catch (error) {
    if (!(error instanceof errorClass)) throw error;
  }
}

describe('decoder fuzzing', () => {
  it('gob: mutated and truncated streams decode or fail with a gob format error, quickly', () => {
    const started = Date.now();
    fc.assert(
      fc.property(mutated(seeds('gob')), fc.constantFrom(...requestShapes), (body, shape) => {
        const before = Date.now();
        expectOnlyFormatErrors(() => decodeGobRepresentation(body, shape), GobFormatError);
        expect(Date.now() - before).toBeLessThan(1000);
      }),
      { numRuns: RUNS },
    );
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it('gob: random bytes fail with a gob format error', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), fc.constantFrom(...requestShapes), (bytes, shape) => {
        expectOnlyFormatErrors(() => decodeGobRepresentation(Buffer.from(bytes), shape), GobFormatError);
      }),
      { numRuns: RUNS },
    );
  });

  it('xml: mutated and truncated documents decode or fail with an XML format error, quickly', () => {
    fc.assert(
      fc.property(mutated(seeds('xml')), fc.constantFrom(...requestShapes), (body, shape) => {
        const before = Date.now();
        expectOnlyFormatErrors(() => decodeXmlRepresentation(body, shape), XmlFormatError);
        expect(Date.now() - before).toBeLessThan(1000);
      }),
      { numRuns: RUNS },
    );
  });

  it('xml: generated hostile markup fails with an XML format error', () => {
    const hostile = fc.oneof(
      fc.nat({ max: 5000 }).map((depth) => '<a>'.repeat(depth) + '</a>'.repeat(depth)),
      fc.string().map((name) => `<!DOCTYPE r [<!ENTITY e "${name.replace(/"/g, '')}">]><r>&e;</r>`),
      fc.constant('<!DOCTYPE r SYSTEM "file:///etc/passwd"><r/>'),
      fc.string({ maxLength: 200 }).map((text) => `<r>${text}`),
      fc.string({ unit: 'binary', maxLength: 200 }),
    );
    fc.assert(
      fc.property(hostile, fc.constantFrom(...requestShapes), (text, shape) => {
        expectOnlyFormatErrors(
          () => decodeXmlRepresentation(Buffer.from(text, 'utf8'), shape),
          XmlFormatError,
        );
      }),
      { numRuns: RUNS },
    );
  });
});
