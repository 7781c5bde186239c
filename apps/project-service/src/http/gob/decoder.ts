import type { FieldShape, ObjectShape, Shape } from '../representation-shape';
import { zeroValueOf } from '../representation-shape';
import { boundExceeded, UNREAD_STRING_FACTOR } from '../representation-bounds';
import { GobFormatError } from './gob-format-error';
import { goFieldName } from './go-names';
import { GobReader } from './primitives';
import { BUILTIN_BY_ID, checkReferences, readWireType } from './type-definitions';
import { FIRST_USER_TYPE_ID, type WireType } from './types';

/** Limits of one decode; the body limit bounds every length, these bound the shape. */
export interface GobDecodeLimits {
  /** Nesting of structs, slices and maps inside the value. */
  maxDepth: number;
  /** Type definitions one stream may carry. */
  maxTypes: number;
}

const DEFAULT_LIMITS: GobDecodeLimits = { maxDepth: 16, maxTypes: 64 };

type StructType = Extract<WireType, { kind: 'struct' }>;

/** Our fields by the Go name gob matches them by, per object shape. */
const goFieldsOf = new WeakMap<ObjectShape, Map<string, FieldShape>>();

function goFields(shape: ObjectShape): Map<string, FieldShape> {
  let fields = goFieldsOf.get(shape);
  if (!fields) {
    fields = new Map(shape.fields.map((field) => [goFieldName(field.name), field]));
    goFieldsOf.set(shape, fields);
  }
  return fields;
}

/**
 * Reads a value in the terms of the representation it must become (its shape), so that only what
 * the representation has is ever built:
 * - a field of ours: its value, in JSON terms (Go field names become JSON names); a list longer
 *   than the schema allows, or a string whose byte length cannot fit its bound
 *   (UNREAD_STRING_FACTOR), is refused as soon as its length is read (boundExceeded), the items or
 *   bytes never read;
 * - a field the sender's type declares but whose value it left out (Go never sends a zero value):
 *   the zero value of our field, bounded by our shape rather than the sender's type (a wide, deep or
 *   recursive type costs nothing this way);
 * - a field the sender's type does not have: absent, as a field a JSON client leaves out;
 * - a field we do not have: stepped over by its type, nothing built;
 * - a value of another kind than ours (a number for a string, a struct for a list): the builtin
 *   value itself, or null for a struct, list or map (stepped over, nothing built), for the
 *   schema's validation to name ("name: expected string").
 * Every length is checked against the bytes present before it is used: a length prefix pointing
 * past the message is an error, never an allocation.
 */
class ShapedDecoder {
  /** The field names and item indexes leading to the value being read, for a bound's message. */
  private readonly path: (string | number)[] = [];
  /** For each struct type and shape: our field for each of the type's fields, by field number. */
  private readonly plans = new Map<StructType, Map<ObjectShape, (FieldShape | undefined)[]>>();

  constructor(
    private readonly types: Map<number, WireType>,
    private readonly limits: GobDecodeLimits,
  ) {}

  private wireType(id: number, depth: number): WireType {
    if (depth >= this.limits.maxDepth) throw new GobFormatError('value nested too deeply');
    const type = this.types.get(id);
    if (!type) throw new GobFormatError(`value of undefined type id ${id}`);
    return type;
  }

  value(reader: GobReader, id: number, shape: Shape, depth: number): unknown {
    const builtin = BUILTIN_BY_ID.get(id);
    if (builtin !== undefined) return this.builtin(reader, builtin, shape);
    const type = this.wireType(id, depth);
    switch (type.kind) {
      case 'struct':
        if (shape.kind === 'object') return this.struct(reader, type, shape, depth + 1);
        this.skipStruct(reader, type, depth + 1);
        return null;
      case 'slice':
        return this.items(reader, type.elem, reader.uint('slice length'), shape, depth + 1);
      case 'array':
        return this.items(reader, type.elem, this.arrayLength(reader, type.length), shape, depth + 1);
      case 'map':
        this.skipMap(reader, type.key, type.elem, depth + 1);
        return null;
      case 'marshaled':
        return reader.bytes('marshaled value');
    }
  }

  private builtin(reader: GobReader, kind: string, shape: Shape): unknown {
    switch (kind) {
      case 'bool':
        return reader.bool();
      case 'int':
        return reader.int();
      case 'uint':
        return reader.uint();
      case 'float':
        return reader.float();
      case 'bytes':
        return reader.bytes();
      case 'string':
        return this.string(reader, shape);
      case 'complex':
        return [reader.float('complex real part'), reader.float('complex imaginary part')];
      default:
        this.skipInterface(reader);
        return undefined;
    }
  }

  private string(reader: GobReader, shape: Shape): string {
    const length = reader.uint('string length');
    const maximum = shape.kind === 'string' ? shape.maxLength : undefined;
    // Bytes that cannot hold a string within the bound are refused unread; nearer, the schema judges.
    if (maximum !== undefined && length > UNREAD_STRING_FACTOR * maximum) {
      throw boundExceeded('string', maximum, this.path);
    }
    return reader.text(length);
  }

  private plan(type: StructType, shape: ObjectShape): (FieldShape | undefined)[] {
    let byShape = this.plans.get(type);
    if (!byShape) this.plans.set(type, (byShape = new Map()));
    let plan = byShape.get(shape);
    if (!plan) {
      const fields = goFields(shape);
      plan = type.fields.map((field) => fields.get(field.name));
      byShape.set(shape, plan);
    }
    return plan;
  }

  struct(reader: GobReader, type: StructType, shape: ObjectShape, depth: number): Record<string, unknown> {
    const plan = this.plan(type, shape);
    const result: Record<string, unknown> = {};
    let field = -1;
    for (;;) {
      const delta = reader.uint('field delta');
      if (delta === 0) break;
      field += delta;
      const definition = type.fields[field];
      if (!definition) throw new GobFormatError('field number beyond the struct type');
      const ours = plan[field];
      if (!ours) {
        this.skip(reader, definition.id, depth);
        continue;
      }
      this.path.push(ours.name);
      result[ours.name] = this.value(reader, definition.id, ours.shape, depth);
      this.path.pop();
    }
    for (const ours of plan) {
      if (ours && !(ours.name in result)) result[ours.name] = zeroValueOf(ours.shape);
    }
    return result;
  }

  private arrayLength(reader: GobReader, declared: number): number {
    const length = reader.uint('array length');
    if (length !== declared) throw new GobFormatError('array length does not match its type');
    return length;
  }

  private items(
    reader: GobReader,
    elem: number,
    length: number,
    shape: Shape,
    depth: number,
  ): unknown[] | null {
    if (shape.kind !== 'array') {
      this.skipItems(reader, elem, length, depth);
      return null;
    }
    if (shape.maxItems !== undefined && length > shape.maxItems) {
      throw boundExceeded('array', shape.maxItems, this.path);
    }
    // Every element takes at least one byte: a hostile length cannot make us allocate past the body.
    if (length > reader.remaining) throw new GobFormatError('slice length exceeds the message');
    const items: unknown[] = [];
    for (let index = 0; index < length; index++) {
      this.path.push(index);
      items.push(this.value(reader, elem, shape.item, depth));
      this.path.pop();
    }
    return items;
  }

  /** Steps over a value of type `id`, checking it as reading it would, building nothing. */
  private skip(reader: GobReader, id: number, depth: number): void {
    const builtin = BUILTIN_BY_ID.get(id);
    if (builtin !== undefined) {
      if (builtin === 'bytes' || builtin === 'string') reader.skip(reader.uint(`${builtin} length`), builtin);
      else if (builtin === 'complex') {
        reader.skipUint('complex real part');
        reader.skipUint('complex imaginary part');
      } else if (builtin === 'interface') this.skipInterface(reader);
      else reader.skipUint(builtin);
      return;
    }
    const type = this.wireType(id, depth);
    switch (type.kind) {
      case 'struct':
        return this.skipStruct(reader, type, depth + 1);
      case 'slice':
        return this.skipItems(reader, type.elem, reader.uint('slice length'), depth + 1);
      case 'array':
        return this.skipItems(reader, type.elem, this.arrayLength(reader, type.length), depth + 1);
      case 'map':
        return this.skipMap(reader, type.key, type.elem, depth + 1);
      case 'marshaled':
        return reader.skip(reader.uint('marshaled value length'), 'marshaled value');
    }
  }

  private skipStruct(reader: GobReader, type: StructType, depth: number): void {
    let field = -1;
    for (;;) {
      const delta = reader.uint('field delta');
      if (delta === 0) return;
      field += delta;
      const definition = type.fields[field];
      if (!definition) throw new GobFormatError('field number beyond the struct type');
      this.skip(reader, definition.id, depth);
    }
  }

  private skipItems(reader: GobReader, elem: number, length: number, depth: number): void {
    if (length > reader.remaining) throw new GobFormatError('slice length exceeds the message');
    for (let index = 0; index < length; index++) this.skip(reader, elem, depth);
  }

  private skipMap(reader: GobReader, key: number, elem: number, depth: number): void {
    const count = reader.uint('map length');
    if (count * 2 > reader.remaining) throw new GobFormatError('map length exceeds the message');
    for (let index = 0; index < count; index++) {
      this.skip(reader, key, depth);
      this.skip(reader, elem, depth);
    }
  }

  /** An interface value: a registered type name (empty for nil), its id and a length-prefixed value. Skipped. */
  private skipInterface(reader: GobReader): void {
    const nameLength = reader.uint('interface type name length');
    if (nameLength === 0) return;
    reader.skip(nameLength, 'interface type name');
    reader.skipUint('interface type id');
    reader.skip(reader.uint('interface value length'), 'interface value');
  }
}

/**
 * Decodes one complete gob stream (type definitions, then one value) into the JSON form of
 * `shape` (ShapedDecoder: what is built, what is refused at once, what is skipped). Throws
 * GobFormatError naming what was wrong, or the schema's error for a list or string past its bound.
 */
export function decodeGob(
  body: Buffer,
  shape: ObjectShape,
  limits: GobDecodeLimits = DEFAULT_LIMITS,
): unknown {
  const types = new Map<number, WireType>();
  const stream = new GobReader(body);
  if (stream.remaining === 0) throw new GobFormatError('empty stream');
  while (stream.remaining > 0) {
    const length = stream.uint('message length');
    if (length === 0) throw new GobFormatError('empty message');
    if (length > stream.remaining) throw new GobFormatError('message length exceeds the body');
    const messageStart = stream.offset;
    const message = new GobReader(body, messageStart, messageStart + length);
    stream.skip(length, 'message');
    const id = message.int('type id');
    if (id < 0) {
      if (-id < FIRST_USER_TYPE_ID) throw new GobFormatError(`type id ${-id} is reserved`);
      if (types.has(-id)) throw new GobFormatError(`type id ${-id} defined twice`);
      if (types.size >= limits.maxTypes) throw new GobFormatError('too many type definitions');
      types.set(-id, readWireType(message));
      if (message.remaining !== 0) throw new GobFormatError('trailing bytes in a type definition');
      continue;
    }
    checkReferences(types);
    const decoder = new ShapedDecoder(types, limits);
    const type = types.get(id);
    let value: unknown;
    if (type?.kind === 'struct') {
      value = decoder.struct(message, type, shape, 1);
    } else {
      // A value of any other type travels as a one-field struct: delta 0... then the value.
      if (message.uint('singleton delta') !== 0) throw new GobFormatError('malformed non-struct value');
      value = decoder.value(message, id, shape, 1);
    }
    if (message.remaining !== 0) throw new GobFormatError('trailing bytes after the value');
    if (stream.remaining !== 0) throw new GobFormatError('data after the value');
    return value;
  }
  throw new GobFormatError('stream ends before a value');
}
