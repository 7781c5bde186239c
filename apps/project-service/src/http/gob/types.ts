/**
 * gob's type system as it travels: every non-builtin type is defined once in
 * the stream (a `wireType` value) before a value of it is sent, and refers to
 * its component types by id.
 */

/** The type ids every gob stream has without defining them (encoding/gob type.go). */
export const BUILTIN_TYPE_IDS = {
  bool: 1,
  int: 2,
  uint: 3,
  float: 4,
  bytes: 5,
  string: 6,
  complex: 7,
  interface: 8,
} as const;

export type BuiltinKind = keyof typeof BUILTIN_TYPE_IDS;

/** The first id the encoder hands out; lower ids are reserved for gob's own types. */
export const FIRST_USER_TYPE_ID = 65;

/** Field numbers of gob's `wireType` struct: which kind of definition a message carries. */
export const WIRE_TYPE_FIELDS = {
  array: 0,
  slice: 1,
  struct: 2,
  map: 3,
  gobEncoder: 4,
  binaryMarshaler: 5,
  textMarshaler: 6,
} as const;

/** A type as the decoder learned it from the stream (component types by id). */
export type WireType =
  | { kind: 'array'; name: string; elem: number; length: number }
  | { kind: 'slice'; name: string; elem: number }
  | { kind: 'struct'; name: string; fields: { name: string; id: number }[] }
  | { kind: 'map'; name: string; key: number; elem: number }
  /** GobEncoder, BinaryMarshaler or TextMarshaler: the value travels as a byte slice. */
  | { kind: 'marshaled'; name: string };

/** A type as the encoder declares it (component types by value). */
export type GobType =
  | { kind: 'bool' | 'int' | 'uint' | 'float' | 'string' | 'bytes' }
  | { kind: 'slice'; name: string; elem: GobType }
  | { kind: 'struct'; name: string; fields: { name: string; type: GobType }[] };
