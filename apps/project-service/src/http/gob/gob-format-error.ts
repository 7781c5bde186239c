/** Malformed or unsupported gob input; the codec turns it into a 400 naming what was wrong. */
export class GobFormatError extends Error {
  override readonly name = 'GobFormatError';
}
