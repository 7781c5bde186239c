import type { ZodType } from 'zod';

/**
 * The structure of a wire representation, read off its zod schema: what the
 * XML and gob codecs need to know that JSON carries in its own syntax (which
 * fields are arrays, booleans or nested objects, and in what order), and the
 * schema's bounds on lengths, so that a decoder can refuse a string or list
 * past its bound as it reads the length, before reading the items.
 */
export type Shape =
  | { kind: 'string'; /** The schema's max(): UTF-16 code units, as zod counts. */ maxLength?: number }
  | { kind: 'boolean' }
  | { kind: 'number' }
  | { kind: 'array'; item: Shape; /** The schema's max(): items. */ maxItems?: number }
  | ObjectShape;

export interface ObjectShape {
  kind: 'object';
  /** The representation's name: the XML root element, the gob struct type name. */
  name: string;
  fields: FieldShape[];
}

export interface FieldShape {
  /** The JSON name. */
  name: string;
  shape: Shape;
}

interface ZodInternals {
  _zod: {
    def: {
      type: string;
      innerType?: ZodType;
      in?: ZodType;
      element?: ZodType;
      shape?: Record<string, ZodType>;
      values?: unknown[];
      checks?: { _zod: { def: { check: string; maximum?: number } } }[];
    };
  };
}

function definition(schema: ZodType): ZodInternals['_zod']['def'] {
  return (schema as unknown as ZodInternals)._zod.def;
}

/** The bound of a string or array schema's max() (zod's max_length check), when it has one. */
function maxLengthOf(def: ZodInternals['_zod']['def']): { maximum?: number } {
  const bounds = (def.checks ?? [])
    .map((check) => check._zod.def)
    .filter((check) => check.check === 'max_length' && check.maximum !== undefined)
    .map((check) => check.maximum!);
  return bounds.length === 0 ? {} : { maximum: Math.min(...bounds) };
}

/** Wrappers that do not change what travels: defaults, optionality, pipes, metadata clones. */
const WRAPPERS = new Set(['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch', 'nonoptional']);

function shapeOfSchema(schema: ZodType, name: string, nestedNames: Readonly<Record<string, string>>): Shape {
  const def = definition(schema);
  if (WRAPPERS.has(def.type) && def.innerType) return shapeOfSchema(def.innerType, name, nestedNames);
  switch (def.type) {
    case 'pipe':
      return shapeOfSchema(def.in!, name, nestedNames);
    case 'string': {
      const { maximum } = maxLengthOf(def);
      return maximum === undefined ? { kind: 'string' } : { kind: 'string', maxLength: maximum };
    }
    case 'enum':
      return { kind: 'string' };
    case 'literal':
      return typeof def.values?.[0] === 'boolean' ? { kind: 'boolean' } : { kind: 'string' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'number':
    case 'int':
      return { kind: 'number' };
    case 'array': {
      const item = shapeOfSchema(def.element!, name, nestedNames);
      const { maximum } = maxLengthOf(def);
      return maximum === undefined ? { kind: 'array', item } : { kind: 'array', item, maxItems: maximum };
    }
    case 'object':
      return {
        kind: 'object',
        name,
        fields: Object.entries(def.shape ?? {}).map(([field, fieldSchema]) => ({
          name: field,
          shape: shapeOfSchema(fieldSchema, nestedNames[field] ?? name, nestedNames),
        })),
      };
    default:
      throw new Error(`representation-shape: zod type ${def.type} has no XML/gob form`);
  }
}

const cache = new WeakMap<ZodType, ObjectShape>();

/**
 * The shape of an object schema, named `name`; `nestedNames` names the object
 * types of nested fields (e.g. `writers` holds `UserInfo` items). Computed once per schema.
 */
export function shapeOf(
  schema: ZodType,
  name: string,
  nestedNames: Readonly<Record<string, string>> = {},
): ObjectShape {
  const cached = cache.get(schema);
  if (cached?.name === name) return cached;
  const shape = shapeOfSchema(schema, name, nestedNames);
  if (shape.kind !== 'object') throw new Error(`representation-shape: ${name} is not an object schema`);
  cache.set(schema, shape);
  return shape;
}

/** The value a field has when a format leaves it out (gob never sends zero values). */
export function zeroValueOf(shape: Shape): unknown {
  switch (shape.kind) {
    case 'string':
      return '';
    case 'boolean':
      return false;
    case 'number':
      return 0;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(shape.fields.map((field) => [field.name, zeroValueOf(field.shape)]));
  }
}
