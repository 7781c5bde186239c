import type { ObjectShape, Shape } from '../representation-shape';
import { goFieldName } from './go-names';
import { GobWriter } from './primitives';
import { BUILTIN_TYPE_IDS, FIRST_USER_TYPE_ID, WIRE_TYPE_FIELDS, type GobType } from './types';

/** Writes one value of a compiled type (zero values included: slices send every element). */
type WriteValue = (writer: GobWriter, value: unknown) => void;

interface FieldPlan {
  json: string;
  write: WriteValue;
  isZero(value: unknown): boolean;
}

/** A representation compiled once: its type definitions as bytes, and how to write its values. */
export interface GobEncoding {
  typeId: number;
  /** The type-definition messages that open every stream of this representation. */
  definitions: Buffer;
  /** Writes the struct's fields (deltas, values, terminator), without the message frame. */
  writeStruct: WriteValue;
  fields: FieldPlan[];
}

function gobTypeOf(shape: Shape): GobType {
  switch (shape.kind) {
    case 'string':
      return { kind: 'string' };
    case 'boolean':
      return { kind: 'bool' };
    case 'number':
      return { kind: 'float' };
    case 'array': {
      const elem = gobTypeOf(shape.item);
      return { kind: 'slice', name: `[]${typeName(elem)}`, elem };
    }
    case 'object':
      return {
        kind: 'struct',
        name: shape.name,
        fields: shape.fields.map((field) => ({
          name: goFieldName(field.name),
          type: gobTypeOf(field.shape),
        })),
      };
  }
}

function typeName(type: GobType): string {
  return 'name' in type
    ? type.name
    : type.kind === 'bytes'
      ? '[]byte'
      : type.kind === 'float'
        ? 'float64'
        : type.kind;
}

/** A structural key: two declarations of the same type (UserInfo in three fields) share one id. */
function typeKey(type: GobType): string {
  switch (type.kind) {
    case 'slice':
      return `[]${typeKey(type.elem)}`;
    case 'struct':
      return `${type.name}{${type.fields.map((field) => `${field.name}:${typeKey(field.type)}`).join(',')}}`;
    default:
      return type.kind;
  }
}

function builtinId(type: GobType): number | undefined {
  return type.kind === 'slice' || type.kind === 'struct' ? undefined : BUILTIN_TYPE_IDS[type.kind];
}

function partsOf(type: GobType): GobType[] {
  return type.kind === 'slice'
    ? [type.elem]
    : type.kind === 'struct'
      ? type.fields.map((field) => field.type)
      : [];
}

/**
 * Hands out ids and writes definitions as Go's encoder does: a struct takes its
 * id before its fields' types (so types may refer to themselves), a slice after
 * its element's; a definition is sent before the definitions of its parts.
 */
class TypeDefinitions {
  private readonly ids = new Map<string, number>();
  private readonly sent = new Set<string>();
  private nextId = FIRST_USER_TYPE_ID;
  readonly output = new GobWriter();

  /** The id of `type`, all definitions it needs written to `output`. */
  define(type: GobType): number {
    this.assign(type);
    this.send(type);
    return this.idOf(type);
  }

  private idOf(type: GobType): number {
    return builtinId(type) ?? this.ids.get(typeKey(type))!;
  }

  private assign(type: GobType): void {
    if (builtinId(type) !== undefined || this.ids.has(typeKey(type))) return;
    if (type.kind === 'struct') this.ids.set(typeKey(type), this.nextId++);
    for (const part of partsOf(type)) this.assign(part);
    if (type.kind === 'slice') this.ids.set(typeKey(type), this.nextId++);
  }

  private send(type: GobType): void {
    const key = typeKey(type);
    if (builtinId(type) !== undefined || this.sent.has(key)) return;
    this.sent.add(key);
    this.write(this.idOf(type), type);
    for (const part of partsOf(type)) this.send(part);
  }

  /** One definition message: the negated id, then a `wireType` value. */
  private write(id: number, type: GobType): void {
    const idOf = (part: GobType) => this.idOf(part);
    const body = new GobWriter();
    body.int(-id);
    if (type.kind === 'slice') {
      body.uint(WIRE_TYPE_FIELDS.slice + 1); // wireType.SliceT
      body.uint(1); // sliceType.CommonType
      writeCommonType(body, type.name, id);
      body.uint(1); // sliceType.Elem
      body.int(idOf(type.elem));
      body.uint(0);
    } else if (type.kind === 'struct') {
      body.uint(WIRE_TYPE_FIELDS.struct + 1); // wireType.StructT
      body.uint(1); // structType.CommonType
      writeCommonType(body, type.name, id);
      if (type.fields.length > 0) {
        body.uint(1); // structType.Field
        body.uint(type.fields.length);
        for (const field of type.fields) {
          body.uint(1); // fieldType.Name
          body.string(field.name);
          body.uint(1); // fieldType.Id
          body.int(idOf(field.type));
          body.uint(0);
        }
      }
      body.uint(0);
    }
    body.uint(0); // end of wireType
    this.output.uint(body.size);
    this.output.raw(body.view());
  }
}

function writeCommonType(writer: GobWriter, name: string, id: number): void {
  let delta = 1;
  if (name !== '') {
    writer.uint(delta); // CommonType.Name
    writer.string(name);
  } else {
    delta = 2;
  }
  writer.uint(delta); // CommonType.Id
  writer.int(id);
  writer.uint(0);
}

function isZeroOf(shape: Shape): (value: unknown) => boolean {
  switch (shape.kind) {
    case 'string':
      return (value) => value === '' || value === undefined || value === null;
    case 'boolean':
      return (value) => value !== true;
    case 'number':
      return (value) => value === 0 || value === undefined || value === null;
    case 'array':
      return (value) => !Array.isArray(value) || value.length === 0;
    case 'object':
      // gob sends nested structs whatever they hold; only a missing one is left out.
      return (value) => value === undefined || value === null;
  }
}

function writerOf(shape: Shape): WriteValue {
  switch (shape.kind) {
    case 'string':
      return (writer, value) => writer.string(typeof value === 'string' ? value : String(value ?? ''));
    case 'boolean':
      return (writer, value) => writer.bool(value === true);
    case 'number':
      return (writer, value) => writer.float(Number(value ?? 0));
    case 'array': {
      const writeItem = writerOf(shape.item);
      return (writer, value) => {
        const items = Array.isArray(value) ? value : [];
        writer.uint(items.length);
        for (const item of items) writeItem(writer, item);
      };
    }
    case 'object':
      return structWriter(fieldPlans(shape));
  }
}

function fieldPlans(shape: ObjectShape): FieldPlan[] {
  return shape.fields.map((field) => ({
    json: field.name,
    write: writerOf(field.shape),
    isZero: isZeroOf(field.shape),
  }));
}

function structWriter(fields: FieldPlan[]): WriteValue {
  return (writer, value) => {
    const record = (value ?? {}) as Record<string, unknown>;
    let last = -1;
    for (let index = 0; index < fields.length; index++) {
      const field = fields[index]!;
      const fieldValue = record[field.json];
      if (field.isZero(fieldValue)) continue;
      writer.uint(index - last);
      last = index;
      field.write(writer, fieldValue);
    }
    writer.uint(0);
  };
}

const compiled = new WeakMap<ObjectShape, GobEncoding>();

/** Compiles a representation for gob once: its type definitions and its value writer. */
export function gobEncodingOf(shape: ObjectShape): GobEncoding {
  const cached = compiled.get(shape);
  if (cached) return cached;
  const definitions = new TypeDefinitions();
  const typeId = definitions.define(gobTypeOf(shape));
  const fields = fieldPlans(shape);
  const encoding: GobEncoding = {
    typeId,
    definitions: definitions.output.toBuffer(),
    writeStruct: structWriter(fields),
    fields,
  };
  compiled.set(shape, encoding);
  return encoding;
}
