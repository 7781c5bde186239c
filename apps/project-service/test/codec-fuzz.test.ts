import fc from 'fast-check';
import { z } from 'zod';
import { decodeGobRepresentation } from '../src/http/gob/representation';
import { GobFormatError } from '../src/http/gob/gob-format-error';
import { representations, type RepresentationName } from '../src/http/representations';
import { decodeXmlRepresentation, XmlFormatError } from '../src/http/xml/xml-decoder';
import { mutated, seeds } from './body-mutations';

// Malformed, truncated and mutated bodies thrown straight at the decoders: each either
// decodes or fails with the codec's format error or the schema's error for a list or text past
// its bound, which the decoders raise as they read it (both a 400), never anything else, and never
// slowly. FUZZ_RUNS raises the number of cases; the HTTP-level fuzz covers the wiring.
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const requestShapes = (
  ['CreateProjectRequest', 'UpdateProjectBaseRequest', 'UpdateProjectSettingsRequest'] as const
).map((name: RepresentationName) => representations[name]);

function expectOnlyFormatErrors(decode: () => unknown, errorClass: new (...args: never[]) => Error): void {
  try {
    decode();
  } catch (error) {
    const pastBound = error instanceof z.ZodError && error.issues.every((issue) => issue.code === 'too_big');
    if (!(error instanceof errorClass) && !pastBound) throw error;
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
