import { RangeNotSatisfiableError, type ByteRange } from './storage';

/**
 * The inclusive range to serve of an object of `size` bytes: all of it without
 * a range (`{ start: 0, end: -1 }` for an empty object: length end - start + 1
 * is 0); `end` clamped to the last byte; a start at or past the end (any range
 * of an empty object) is not satisfiable.
 */
export function resolveRange(size: number, range: ByteRange | undefined): { start: number; end: number } {
  if (range === undefined) return { start: 0, end: size - 1 };
  checkRange(range);
  if (range.start >= size) throw new RangeNotSatisfiableError(size);
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}

/** A range the caller built wrong (negative, fractional, end before start) is a bug, not a 416. */
export function checkRange({ start, end }: ByteRange): void {
  const valid =
    Number.isSafeInteger(start) &&
    start >= 0 &&
    (end === undefined || (Number.isSafeInteger(end) && end >= start));
  if (!valid) throw new RangeError(`invalid byte range ${start}-${end ?? ''}`);
}
