import type { ZodType } from 'zod';

/**
 * The structure of a wire representation, read off its zod schema: what the
 * XML and gob codecs need to know that JSON carries in its own syntax (which
 * fields are arrays, booleans or nested objects, and in what order).
 */
export type Shape =
  | { kind: 'string' }
  | { kind: 'boolean' }
  | { kind: 'number' }
  | { kind: 'array'; item: Shape }
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
    };
  };
}

function definition(schema: ZodType): ZodInternals['_zod']['def'] {
  return (schema as unknown as ZodInternals)._zod.def;
}

/** Wrappers that do not change what travels: defaults, optionality, pipes, metadata clones. */
const WRAPPERS = new Set(['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch', 'nonoptional']);

function shapeOfSchema(schema: ZodType, name: string, nestedNames: Readonly<Record<string, string>>): Shape {
  const def = definition(schema);
  if (WRAPPERS.has(def.type) && def.innerType) return shapeOfSchema(def.innerType, name, nestedNames);
  switch (def.type) {
    case 'pipe':
      return shapeOfSchema(def.in!, name, nestedNames);
    case 'string':
    case 'enum':
      return { kind: 'string' };
    case 'literal':
      return typeof def.values?.[0] === 'boolean' ? { kind: 'boolean' } : { kind: 'string' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'number':
    case 'int':
      return { kind: 'number' };
    case 'array':
      return { kind: 'array', item: shapeOfSchema(def.element!, name, nestedNames) };
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
