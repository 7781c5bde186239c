/**
 * The type definitions of a gob stream: each a `wireType` value (encoding/gob type.go) in a message
 * of its own, read into a WireType that refers to its parts by id.
 */
import { GobFormatError } from './gob-format-error';
import type { GobReader } from './primitives';
import { BUILTIN_TYPE_IDS, WIRE_TYPE_FIELDS, type WireType } from './types';

export const BUILTIN_BY_ID = new Map<number, string>(
  Object.entries(BUILTIN_TYPE_IDS).map(([kind, id]) => [id, kind]),
);

/** Reads a `wireType` value: which definition the message carries. */
export function readWireType(reader: GobReader): WireType {
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

/** Refuses a definition whose parts are neither builtin nor defined in the stream. */
export function checkReferences(types: Map<number, WireType>): void {
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
