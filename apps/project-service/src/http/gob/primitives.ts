/**
 * The primitive encodings of Go's gob format (encoding/gob, "Encoding details"):
 * unsigned integers in one byte below 128, otherwise a negated byte count and
 * big-endian bytes; signed integers folded into unsigned ones (bit 0 is the
 * sign); floats as byte-reversed IEEE 754 bits; strings and byte slices as a
 * length and the bytes.
 */
import { GobFormatError } from './gob-format-error';

const MAX_UINT64 = (1n << 64n) - 1n;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** An append-only byte buffer that grows by doubling. */
export class GobWriter {
  private buffer: Buffer;
  private length = 0;

  constructor(initialSize = 256) {
    this.buffer = Buffer.allocUnsafe(initialSize);
  }

  get size(): number {
    return this.length;
  }

  /** Empties the buffer for reuse, keeping its memory. */
  reset(): void {
    this.length = 0;
  }

  private reserve(extra: number): void {
    const needed = this.length + extra;
    if (needed <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < needed) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  uint(value: number | bigint): void {
    if (typeof value === 'number' && value >= 0 && Number.isSafeInteger(value)) {
      this.safeUint(value);
      return;
    }
    let big = BigInt(value);
    if (big < 0n || big > MAX_UINT64) throw new RangeError(`gob: ${value} is not a uint64`);
    const bytes: number[] = [];
    while (big > 0n) {
      bytes.unshift(Number(big & 0xffn));
      big >>= 8n;
    }
    this.reserve(bytes.length + 1);
    this.buffer[this.length++] = 256 - bytes.length;
    for (const byte of bytes) this.buffer[this.length++] = byte;
  }

  /** The common case without BigInt: lengths, counts, deltas, type ids. */
  private safeUint(value: number): void {
    if (value < 0x80) {
      this.reserve(1);
      this.buffer[this.length++] = value;
      return;
    }
    let count = 0;
    for (let rest = value; rest > 0; rest = Math.floor(rest / 256)) count++;
    this.reserve(count + 1);
    this.buffer[this.length++] = 256 - count;
    let rest = value;
    for (let index = count - 1; index >= 0; index--) {
      this.buffer[this.length + index] = rest % 256;
      rest = Math.floor(rest / 256);
    }
    this.length += count;
  }

  int(value: number | bigint): void {
    if (typeof value === 'number' && Number.isSafeInteger(value) && Math.abs(value) < 2 ** 51) {
      this.safeUint(value < 0 ? -value * 2 - 1 : value * 2);
      return;
    }
    const big = BigInt(value);
    this.uint(big < 0n ? ((-big - 1n) << 1n) | 1n : big << 1n);
  }

  bool(value: boolean): void {
    this.uint(value ? 1 : 0);
  }

  float(value: number): void {
    const bits = Buffer.allocUnsafe(8);
    bits.writeDoubleLE(value);
    // Little-endian bytes read big-endian: the byte-reversed bits gob sends.
    this.uint(bits.readBigUInt64BE());
  }

  bytes(value: Uint8Array): void {
    this.uint(value.length);
    this.reserve(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
  }

  string(value: string): void {
    const byteLength = Buffer.byteLength(value, 'utf8');
    this.uint(byteLength);
    this.reserve(byteLength);
    this.length += this.buffer.write(value, this.length, 'utf8');
  }

  raw(value: Uint8Array): void {
    this.reserve(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
  }

  /** The bytes written so far (a view, valid until the next write). */
  view(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  /** A copy of the bytes written so far. */
  toBuffer(): Buffer {
    return Buffer.from(this.view());
  }
}

/** Reads primitives from a bounded byte range; every read is checked against the bytes left. */
export class GobReader {
  private position: number;

  constructor(
    private readonly buffer: Buffer,
    start = 0,
    private readonly end = buffer.length,
  ) {
    this.position = start;
  }

  get offset(): number {
    return this.position;
  }

  get remaining(): number {
    return this.end - this.position;
  }

  private need(count: number, what: string): void {
    if (count > this.remaining) throw new GobFormatError(`truncated ${what}`);
  }

  /** An unsigned integer as a bigint (full uint64 range). */
  bigUint(what = 'unsigned integer'): bigint {
    this.need(1, what);
    const first = this.buffer[this.position++]!;
    if (first < 0x80) return BigInt(first);
    const count = 256 - first;
    if (count > 8) throw new GobFormatError(`${what}: invalid length byte`);
    this.need(count, what);
    let value = 0n;
    for (let index = 0; index < count; index++) value = (value << 8n) | BigInt(this.buffer[this.position++]!);
    return value;
  }

  /** An unsigned integer that must fit a JavaScript safe integer (lengths, counts, deltas, ids). */
  uint(what = 'unsigned integer'): number {
    this.need(1, what);
    const first = this.buffer[this.position]!;
    if (first < 0x80) {
      this.position += 1;
      return first;
    }
    // Up to six bytes (48 bits) add up exactly in a double; longer ones go through bigUint.
    const count = 256 - first;
    if (count > 6) {
      const value = this.bigUint(what);
      if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new GobFormatError(`${what} out of range`);
      return Number(value);
    }
    this.need(count + 1, what);
    let value = 0;
    for (let index = 1; index <= count; index++) value = value * 256 + this.buffer[this.position + index]!;
    this.position += count + 1;
    return value;
  }

  /** Steps over an unsigned integer (any of gob's integers, a bool, a float) without reading its value. */
  skipUint(what = 'unsigned integer'): void {
    this.need(1, what);
    const first = this.buffer[this.position]!;
    if (first < 0x80) {
      this.position += 1;
      return;
    }
    const count = 256 - first;
    if (count > 8) throw new GobFormatError(`${what}: invalid length byte`);
    this.need(count + 1, what);
    this.position += count + 1;
  }

  bigInt(what = 'integer'): bigint {
    const folded = this.bigUint(what);
    return folded & 1n ? -(folded >> 1n) - 1n : folded >> 1n;
  }

  int(what = 'integer'): number {
    this.need(1, what);
    const first = this.buffer[this.position]!;
    if (first < 0x80 || 256 - first <= 6) {
      // At most 48 bits: exact in a double, unfolded without BigInt (bit 0 is the sign).
      const folded = this.uint(what);
      return folded % 2 === 1 ? -(folded - 1) / 2 - 1 : folded / 2;
    }
    const value = this.bigInt(what);
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new GobFormatError(`${what} out of range`);
    }
    return Number(value);
  }

  bool(what = 'bool'): boolean {
    const value = this.bigUint(what);
    if (value > 1n) throw new GobFormatError(`${what}: invalid value`);
    return value === 1n;
  }

  float(what = 'float'): number {
    const bits = Buffer.allocUnsafe(8);
    bits.writeBigUInt64BE(this.bigUint(what));
    return bits.readDoubleLE();
  }

  /** A length-prefixed byte run; the length is checked against what is left before anything is read. */
  bytes(what = 'byte slice'): Buffer {
    const length = this.uint(`${what} length`);
    this.need(length, what);
    const value = this.buffer.subarray(this.position, this.position + length);
    this.position += length;
    return value;
  }

  string(what = 'string'): string {
    return this.text(this.uint(`${what} length`), what);
  }

  /** The next `length` bytes as UTF-8 text (a string whose length prefix was read already). */
  text(length: number, what = 'string'): string {
    this.need(length, what);
    const bytes = this.buffer.subarray(this.position, this.position + length);
    this.position += length;
    try {
      // Go strings may hold any bytes; ours are text: refuse what is not UTF-8.
      return utf8.decode(bytes);
    } catch {
      throw new GobFormatError(`${what} is not valid UTF-8`);
    }
  }

  skip(count: number, what: string): void {
    this.need(count, what);
    this.position += count;
  }
}
