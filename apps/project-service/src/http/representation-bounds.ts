import { z } from 'zod';

/** Where a decoder is in a representation: field names and item indexes, as zod writes paths. */
export type FieldPath = readonly (string | number)[];

const probes = new Map<string, z.core.$ZodIssue[]>();

/** The issue zod itself raises for a string or array one past `maximum` (made once per bound). */
function tooBigIssue(kind: 'string' | 'array', maximum: number): z.core.$ZodIssue {
  const key = `${kind}:${maximum}`;
  let issues = probes.get(key);
  if (!issues) {
    const result =
      kind === 'string'
        ? z
            .string()
            .max(maximum)
            .safeParse(' '.repeat(maximum + 1))
        : z
            .array(z.unknown())
            .max(maximum)
            .safeParse(new Array<unknown>(maximum + 1).fill(0));
    issues = result.error!.issues;
    probes.set(key, issues);
  }
  return issues[0]!;
}

/**
 * How far past its bound a string must be to be refused as it is read: the most bytes of UTF-8 a
 * UTF-16 code unit (what zod counts) takes, so that gob's byte length alone shows the string cannot
 * fit. XML text is held to the same, so both refuse alike. A string nearer its bound is read whole
 * and judged by the schema with the rest of the body, as a JSON one is: the message then lists
 * every issue of the body, the same in every format.
 */
export const UNREAD_STRING_FACTOR = 3;

/**
 * The validation error a JSON client gets for a string or list past its field's bound ("writers:
 * must be at most 300 items"), for the XML and gob decoders to throw as soon as they read a length
 * or count past it: the rest of the value is never read. The bound comes from the schema
 * (representation-shape.ts), the issue is zod's own, so both answers are one.
 */
export function boundExceeded(kind: 'string' | 'array', maximum: number, path: FieldPath): z.ZodError {
  return new z.ZodError([{ ...tooBigIssue(kind, maximum), path: [...path] }]);
}
