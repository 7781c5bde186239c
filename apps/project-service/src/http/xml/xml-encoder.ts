import type { ObjectShape, Shape } from '../representation-shape';

// Written from the representation's shape rather than with xml2js's Builder:
// the Builder runs about 20 times slower than JSON.stringify on a list, and
// the XML list must encode at least half as fast as JSON.

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

// Characters XML 1.0 cannot carry even escaped (with the u flag a surrogate range
// matches only unpaired halves); Go's encoding/xml writes U+FFFD for them too.
/* eslint-disable no-control-regex */
const NOT_XML_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/gu;
const NEEDS_ESCAPE = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/;
/* eslint-enable no-control-regex */

export function escapeXmlText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text
    .replace(NOT_XML_CHARACTER, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#xD;');
}

type WriteElement = (name: string, value: unknown) => string;

function elementWriter(shape: Shape): WriteElement {
  switch (shape.kind) {
    case 'string':
      return (name, value) =>
        `<${name}>${escapeXmlText(typeof value === 'string' ? value : String(value ?? ''))}</${name}>`;
    case 'boolean':
      return (name, value) => `<${name}>${value === true ? 'true' : 'false'}</${name}>`;
    case 'number':
      return (name, value) => `<${name}>${Number(value ?? 0)}</${name}>`;
    case 'array': {
      // One element per item, each named like the field; an empty array is no element.
      const writeItem = elementWriter(shape.item);
      return (name, value) =>
        Array.isArray(value) ? value.map((item) => writeItem(name, item)).join('') : '';
    }
    case 'object': {
      const writeFields = fieldsWriter(shape);
      return (name, value) => `<${name}>${writeFields(value)}</${name}>`;
    }
  }
}

function fieldsWriter(shape: ObjectShape): (value: unknown) => string {
  const fields = shape.fields.map((field) => ({ name: field.name, write: elementWriter(field.shape) }));
  return (value) => {
    const record = (value ?? {}) as Record<string, unknown>;
    let out = '';
    for (const field of fields) {
      const fieldValue = record[field.name];
      // An optional field that is absent (next_page_token on the last page) is no element.
      if (fieldValue !== undefined) out += field.write(field.name, fieldValue);
    }
    return out;
  };
}

const compiled = new WeakMap<ObjectShape, (value: unknown) => string>();

/** The element content of a representation (its fields), compiled once per shape. */
export function xmlFieldsOf(shape: ObjectShape): (value: unknown) => string {
  let write = compiled.get(shape);
  if (!write) {
    write = fieldsWriter(shape);
    compiled.set(shape, write);
  }
  return write;
}

/** A whole document: the root element named after the representation. */
export function encodeXmlRepresentation(shape: ObjectShape, value: unknown): string {
  return `${XML_DECLARATION}<${shape.name}>${xmlFieldsOf(shape)(value)}</${shape.name}>`;
}
