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

/** An append-only UTF-8 byte buffer. */
export class XmlWriter {
  private buffer: Buffer;
  private length = 0;

  constructor(initialSize = 4096) {
    this.buffer = Buffer.allocUnsafe(initialSize);
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

  /** Writes markup and already escaped text. */
  write(xml: string): void {
    // At most 3 bytes per UTF-16 unit.
    this.reserve(xml.length * 3);
    this.length += this.buffer.write(xml, this.length);
  }

  get size(): number {
    return this.length;
  }

  toBuffer(): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.length));
  }
}

/** Renders one element (or, for an array, one element per item) as text. */
type RenderElement = (value: unknown) => string;

function elementRenderer(name: string, shape: Shape): RenderElement {
  const open = `<${name}>`;
  const close = `</${name}>`;
  switch (shape.kind) {
    case 'string':
      return (value) => open + escapeXmlText(typeof value === 'string' ? value : String(value ?? '')) + close;
    case 'boolean': {
      const whenTrue = `${open}true${close}`;
      const whenFalse = `${open}false${close}`;
      return (value) => (value === true ? whenTrue : whenFalse);
    }
    case 'number':
      return (value) => `${open}${Number(value ?? 0)}${close}`;
    case 'array': {
      // One element per item, each named like the field; an empty array is no element.
      const renderItem = elementRenderer(name, shape.item);
      return (value) => {
        if (!Array.isArray(value)) return '';
        let out = '';
        for (const item of value) out += renderItem(item);
        return out;
      };
    }
    case 'object': {
      const renderFields = fieldsRenderer(shape);
      return (value) => open + renderFields(value) + close;
    }
  }
}

function fieldsRenderer(shape: ObjectShape): RenderElement {
  const fields = shape.fields.map((field) => ({
    name: field.name,
    render: elementRenderer(field.name, field.shape),
  }));
  return (value) => {
    const record = (value ?? {}) as Record<string, unknown>;
    let out = '';
    for (const field of fields) {
      const fieldValue = record[field.name];
      // An optional field that is absent (next_page_token on the last page) is no element.
      if (fieldValue !== undefined) out += field.render(fieldValue);
    }
    return out;
  };
}

/** Each field of a representation: a list renders item by item, anything else whole. */
interface FieldPlan {
  name: string;
  list: boolean;
  render: RenderElement;
}

const compiled = new WeakMap<ObjectShape, FieldPlan[]>();

function planOf(shape: ObjectShape): FieldPlan[] {
  let plan = compiled.get(shape);
  if (!plan) {
    plan = shape.fields.map((field) =>
      field.shape.kind === 'array'
        ? { name: field.name, list: true, render: elementRenderer(field.name, field.shape.item) }
        : { name: field.name, list: false, render: elementRenderer(field.name, field.shape) },
    );
    compiled.set(shape, plan);
  }
  return plan;
}

/** How a list field's items render: `<projects>…</projects>` per project of `Projects`. */
export function xmlItemRenderer(shape: ObjectShape, field: string): RenderElement {
  const plan = planOf(shape).find((candidate) => candidate.name === field && candidate.list);
  if (!plan) throw new Error(`xml: ${shape.name}.${field} is not a list`);
  return plan.render;
}

export function xmlRootOpen(shape: ObjectShape): string {
  return `${XML_DECLARATION}<${shape.name}>`;
}

export function xmlRootClose(shape: ObjectShape): string {
  return `</${shape.name}>`;
}

/** A whole document: the root element named after the representation, written field by field. */
export function encodeXmlRepresentation(shape: ObjectShape, value: unknown): Buffer {
  const writer = new XmlWriter();
  writer.write(xmlRootOpen(shape));
  const record = (value ?? {}) as Record<string, unknown>;
  for (const field of planOf(shape)) {
    const fieldValue = record[field.name];
    // An optional field that is absent (next_page_token on the last page) is no element.
    if (fieldValue === undefined) continue;
    if (field.list) {
      // Item by item into the buffer, so a long list is never one string.
      if (Array.isArray(fieldValue)) for (const item of fieldValue) writer.write(field.render(item));
    } else {
      writer.write(field.render(fieldValue));
    }
  }
  writer.write(xmlRootClose(shape));
  return writer.toBuffer();
}
