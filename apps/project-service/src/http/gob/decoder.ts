import { GobFormatError } from './gob-format-error';
import { GobReader } from './primitives';
import { BUILTIN_TYPE_IDS, FIRST_USER_TYPE_ID, WIRE_TYPE_FIELDS, type WireType } from './types';

/** Limits of one decode; the body limit bounds every length, these bound the shape. */
export interface GobDecodeLimits {
  /** Nesting of structs, slices and maps inside the value. */
  maxDepth: number;
  /** Type definitions one stream may carry. */
  maxTypes: number;
}

const DEFAULT_LIMITS: GobDecodeLimits = { maxDepth: 16, maxTypes: 64 };

/**
 * A decoded value: structs become objects keyed by Go field name, slices and
 * arrays become arrays, maps become Maps, integers numbers, byte slices Buffers.
 * A field the sender's type declares but whose value it left out (Go never
 * sends a zero value) holds `UNSENT_ZERO`: the reader decides what its zero value
 * is (building it from the sender's type would let a small body with a wide,
 * deep or recursive type cost exponential work); a field its type does not have
 * is absent, as a field a JSON client leaves out.
 */
export type GobValue =
  | typeof UNSENT_ZERO
  | string
  | number
  | boolean
  | Buffer
  | GobValue[]
  | Map<GobValue, GobValue>
  | { [field: string]: GobValue }
  | undefined;

/** A field the sender's type declares, left unsent because it held its zero value. */
export const UNSENT_ZERO: unique symbol = Symbol('gob: zero value, not sent');

const BUILTIN_BY_ID = new Map<number, string>(
  Object.entries(BUILTIN_TYPE_IDS).map(([kind, id]) => [id, kind]),
);

/** Reads a `wireType` value: which definition the message carries. */
function readWireType(reader: GobReader): WireType {
  let field = -1;
  let wire: WireType | undefined;
  for (;;) {
    const delta = reader.uint('type definition field');
    if (delta === 0) break;
    field += delta;
    if (wire) throw new GobFormatError('type definition defines more than one type');
    switch (field) {
      case WIRE_TYPE_FIELDS.array: {
        const { name, fields } = readDefinitionStruct(reader, ['Elem', 'Len']);
        wire = { kind: 'array', name, elem: fields.Elem ?? 0, length: fields.Len ?? 0 };
        break;
      }
      case WIRE_TYPE_FIELDS.slice: {
        const { name, fields } = readDefinitionStruct(reader, ['Elem']);
        wire = { kind: 'slice', name, elem: fields.Elem ?? 0 };
        break;
      }
      case WIRE_TYPE_FIELDS.struct:
        wire = readStructType(reader);
        break;
      case WIRE_TYPE_FIELDS.map: {
        const { name, fields } = readDefinitionStruct(reader, ['Key', 'Elem']);
        wire = { kind: 'map', name, key: fields.Key ?? 0, elem: fields.Elem ?? 0 };
        break;
      }
      case WIRE_TYPE_FIELDS.gobEncoder:
      case WIRE_TYPE_FIELDS.binaryMarshaler:
      case WIRE_TYPE_FIELDS.textMarshaler: {
        const { name } = readDefinitionStruct(reader, []);
        wire = { kind: 'marshaled', name };
        break;
      }
      default:
        throw new GobFormatError('type definition of an unknown kind');
    }
  }
  if (!wire) throw new GobFormatError('empty type definition');
  return wire;
}

/** CommonType (field 0) followed by integer fields (arrayType, sliceType, mapType, gobEncoderType). */
function readDefinitionStruct(
  reader: GobReader,
  integerFields: string[],
): { name: string; fields: Record<string, number> } {
  let field = -1;
  let name = '';
  const fields: Record<string, number> = {};
  for (;;) {
    const delta = reader.uint('type definition field');
    if (delta === 0) return { name, fields };
    field += delta;
    if (field === 0) name = readCommonTypeName(reader);
    else if (field <= integerFields.length) fields[integerFields[field - 1]!] = reader.int('type id');
    else throw new GobFormatError('type definition has an unknown field');
  }
}

function readCommonTypeName(reader: GobReader): string {
  let field = -1;
  let name = '';
  for (;;) {
    const delta = reader.uint('type definition field');
    if (delta === 0) return name;
    field += delta;
    if (field === 0) name = reader.string('type name');
    else if (field === 1) reader.int('type id');
    else throw new GobFormatError('type definition has an unknown field');
  }
}

function readStructType(reader: GobReader): WireType {
  let field = -1;
  let name = '';
  const fields: { name: string; id: number }[] = [];
  for (;;) {
    const delta = reader.uint('type definition field');
    if (delta === 0) return { kind: 'struct', name, fields };
    field += delta;
    if (field === 0) {
      name = readCommonTypeName(reader);
    } else if (field === 1) {
      const count = reader.uint('field count');
      if (count > reader.remaining) throw new GobFormatError('field count exceeds the message');
      for (let index = 0; index < count; index++) fields.push(readFieldType(reader));
    } else {
      throw new GobFormatError('type definition has an unknown field');
    }
  }
}

function readFieldType(reader: GobReader): { name: string; id: number } {
  let field = -1;
  let name = '';
  let id = 0;
  for (;;) {
    const delta = reader.uint('field definition');
    if (delta === 0) return { name, id };
    field += delta;
    if (field === 0) name = reader.string('field name');
    else if (field === 1) id = reader.int('field type id');
    else throw new GobFormatError('field definition has an unknown field');
  }
}

class ValueDecoder {
  constructor(
    private readonly types: Map<number, WireType>,
    private readonly limits: GobDecodeLimits,
  ) {}

  private wireType(id: number): WireType {
    const type = this.types.get(id);
    if (!type) throw new GobFormatError(`value of undefined type id ${id}`);
    return type;
  }

  value(reader: GobReader, id: number, depth: number): GobValue {
    const builtin = BUILTIN_BY_ID.get(id);
    if (builtin !== undefined) return this.builtin(reader, builtin);
    if (depth >= this.limits.maxDepth) throw new GobFormatError('value nested too deeply');
    const type = this.wireType(id);
    switch (type.kind) {
      case 'struct':
        return this.struct(reader, type.fields, depth + 1);
      case 'slice':
        return this.items(reader, type.elem, reader.uint('slice length'), depth + 1);
      case 'array': {
        const length = reader.uint('array length');
        if (length !== type.length) throw new GobFormatError('array length does not match its type');
        return this.items(reader, type.elem, length, depth + 1);
      }
      case 'map':
        return this.map(reader, type.key, type.elem, depth + 1);
      case 'marshaled':
        return reader.bytes('marshaled value');
    }
  }

  private builtin(reader: GobReader, kind: string): GobValue {
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
        return reader.string();
      case 'complex':
        return [reader.float('complex real part'), reader.float('complex imaginary part')];
      default:
        this.skipInterface(reader);
        return undefined;
    }
  }

  /** An interface value: a registered type name, its id and a length-prefixed value. Skipped. */
  private skipInterface(reader: GobReader): void {
    const name = reader.string('interface type name');
    if (name === '') return;
    reader.int('interface type id');
    reader.skip(reader.uint('interface value length'), 'interface value');
  }

  struct(reader: GobReader, fields: { name: string; id: number }[], depth: number): GobValue {
    const result: Record<string, GobValue> = {};
    let field = -1;
    for (;;) {
      const delta = reader.uint('field delta');
      if (delta === 0) break;
      field += delta;
      const definition = fields[field];
      if (!definition) throw new GobFormatError('field number beyond the struct type');
      result[definition.name] = this.value(reader, definition.id, depth);
    }
    for (const definition of fields) {
      if (!(definition.name in result)) result[definition.name] = UNSENT_ZERO;
    }
    return result;
  }

  private items(reader: GobReader, elem: number, length: number, depth: number): GobValue[] {
    // Every element takes at least one byte: a hostile length cannot make us allocate past the body.
    if (length > reader.remaining) throw new GobFormatError('slice length exceeds the message');
    const items: GobValue[] = [];
    for (let index = 0; index < length; index++) items.push(this.value(reader, elem, depth));
    return items;
  }

  private map(reader: GobReader, key: number, elem: number, depth: number): GobValue {
    const count = reader.uint('map length');
    if (count * 2 > reader.remaining) throw new GobFormatError('map length exceeds the message');
    const entries = new Map<GobValue, GobValue>();
    for (let index = 0; index < count; index++) {
      entries.set(this.value(reader, key, depth), this.value(reader, elem, depth));
    }
    return entries;
  }
}

function checkReferences(types: Map<number, WireType>): void {
  const known = (id: number) => BUILTIN_BY_ID.has(id) || types.has(id);
  for (const [id, type] of types) {
    const parts =
      type.kind === 'struct'
        ? type.fields.map((field) => field.id)
        : type.kind === 'map'
          ? [type.key, type.elem]
          : type.kind === 'marshaled'
            ? []
            : [type.elem];
    const missing = parts.find((part) => !known(part));
    if (missing !== undefined) throw new GobFormatError(`type ${id} refers to undefined type id ${missing}`);
  }
}

/**
 * Decodes one complete gob stream (type definitions, then one value) into a
 * GobValue and the name of its type. Everything is checked against the bytes
 * present: a length prefix that points past the end is an error, never an
 * allocation. Throws GobFormatError naming what was wrong.
 */
export function decodeGob(
  body: Buffer,
  limits: GobDecodeLimits = DEFAULT_LIMITS,
): { typeName: string; value: GobValue } {
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
    const decoder = new ValueDecoder(types, limits);
    const type = types.get(id);
    let value: GobValue;
    if (type?.kind === 'struct') {
      value = decoder.struct(message, type.fields, 1);
    } else {
      // A value of any other type travels as a one-field struct: delta 0... then the value.
      if (message.uint('singleton delta') !== 0) throw new GobFormatError('malformed non-struct value');
      value = decoder.value(message, id, 1);
    }
    if (message.remaining !== 0) throw new GobFormatError('trailing bytes after the value');
    if (stream.remaining !== 0) throw new GobFormatError('data after the value');
    return { typeName: type?.name ?? BUILTIN_BY_ID.get(id) ?? '', value };
  }
  throw new GobFormatError('stream ends before a value');
}
