import sax from 'sax';
import { boundExceeded, UNREAD_STRING_FACTOR } from '../representation-bounds';
import type { FieldShape, ObjectShape, Shape } from '../representation-shape';

/** Malformed or hostile XML; the codec turns it into a 400 naming what was wrong. */
export class XmlFormatError extends Error {
  override readonly name = 'XmlFormatError';
}

export interface XmlDecodeLimits {
  /** Element nesting, the root included: root, field, UserInfo field. */
  maxDepth: number;
  /** Elements in the whole document. */
  maxElements: number;
  /** Attributes on one element (no representation has any: they are read and ignored). */
  maxAttributesPerElement: number;
  /** Attributes in the whole document. */
  maxAttributes: number;
  /**
   * Characters of one piece of markup: a start tag with its attributes, an end tag, a comment, a
   * processing instruction, a declaration, an entity reference. Text is bounded by its field.
   */
  maxMarkupLength: number;
}

export const XML_LIMITS: XmlDecodeLimits = {
  maxDepth: 3,
  maxElements: 20_000,
  maxAttributesPerElement: 32,
  maxAttributes: 1_000,
  maxMarkupLength: 8_192,
};

/** Characters handed to sax at a time; the bounds on what it buffers are checked between. */
const CHUNK = 4_096;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** What sax holds of the markup it is reading (its parser's fields, not in its type declarations). */
interface SaxBuffers {
  tagName: string;
  attribName: string;
  comment: string;
  procInstName: string;
  procInstBody: string;
  sgmlDecl: string;
  doctype: string;
  entity: string;
  textNode: string;
  cdata: string;
  startTagPosition: number;
}

/** An open element: what it becomes in the representation. */
interface Frame {
  /** Our shape for its content; undefined for an element no field takes (read, then dropped). */
  shape: Shape | undefined;
  /** An object element's fields so far. */
  fields: Record<string, unknown> | undefined;
  /** A string, boolean or number element's character data so far. */
  text: string;
  /** Its field's bound on that text, when it has one (refused as read past UNREAD_STRING_FACTOR times it). */
  maxLength: number | undefined;
  /** The path segments it added (its field name, and its index in a list). */
  pathLength: number;
}

/** One element's content in the JSON form of `shape`; values that do not fit are left for validation to name. */
function valueOf(frame: Frame, shape: Shape): unknown {
  switch (shape.kind) {
    case 'string':
      return frame.text;
    case 'boolean': {
      const text = frame.text.trim();
      return text === 'true' ? true : text === 'false' ? false : frame.text;
    }
    case 'number': {
      const text = frame.text.trim();
      return text !== '' && Number.isFinite(Number(text)) ? Number(text) : frame.text;
    }
    case 'array':
      return [valueOf(frame, shape.item)];
    case 'object':
      return frame.fields ?? {};
  }
}

const fieldsByName = new WeakMap<ObjectShape, Map<string, FieldShape>>();

function fieldNamed(shape: ObjectShape, name: string): FieldShape | undefined {
  let fields = fieldsByName.get(shape);
  if (!fields) {
    fields = new Map(shape.fields.map((field) => [field.name, field]));
    fieldsByName.set(shape, fields);
  }
  return fields.get(name);
}

function frameFor(shape: Shape | undefined, pathLength: number): Frame {
  return {
    shape,
    fields: shape?.kind === 'object' ? {} : undefined,
    text: '',
    maxLength: shape?.kind === 'string' ? shape.maxLength : undefined,
    pathLength,
  };
}

/**
 * Decodes an XML request body into the JSON form of `shape` in one streaming pass: one element
 * per field named as in JSON (any root name), repeated elements for arrays, `true`/`false` for
 * booleans; a missing element is a missing field, as in JSON, an unknown one is dropped. Refused
 * as soon as the parser reaches it: a DOCTYPE (entity expansion, external entities), nesting,
 * elements, attributes or markup past XML_LIMITS, a list longer than its field's schema allows and
 * a text too long to be judged with the rest (UNREAD_STRING_FACTOR times its bound), with the
 * schema's own error, as a JSON client gets it.
 */
export function decodeXmlRepresentation(
  body: Buffer,
  shape: ObjectShape,
  limits: XmlDecodeLimits = XML_LIMITS,
): unknown {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new XmlFormatError('the body is not valid UTF-8');
  }
  const parser = sax.parser(true);
  const buffers = parser as unknown as SaxBuffers;
  const path: (string | number)[] = [];
  const frames: Frame[] = [];
  let root: Frame | undefined;
  let elements = 0;
  let attributes = 0;
  let elementAttributes = 0;
  /** Where the start tag being read began, while one is. */
  let startTag: number | undefined;

  const checkText = (frame: Frame, pending: number) => {
    if (
      frame.maxLength !== undefined &&
      frame.text.length + pending > UNREAD_STRING_FACTOR * frame.maxLength
    ) {
      throw boundExceeded('string', frame.maxLength, path);
    }
  };
  const addText = (chunk: string) => {
    const frame = frames[frames.length - 1];
    if (!frame || frame.fields || !frame.shape) return;
    frame.text += chunk;
    checkText(frame, 0);
  };

  parser.ondoctype = () => {
    throw new XmlFormatError('a DOCTYPE is not accepted');
  };
  parser.onopentagstart = (tag) => {
    elements += 1;
    if (frames.length + 1 > limits.maxDepth)
      throw new XmlFormatError(`elements nested deeper than ${limits.maxDepth} levels`);
    if (elements > limits.maxElements) throw new XmlFormatError(`more than ${limits.maxElements} elements`);
    elementAttributes = 0;
    startTag = buffers.startTagPosition;
    const parent = frames[frames.length - 1];
    if (!parent) {
      root = frameFor(shape, 0);
      frames.push(root);
      return;
    }
    const field = parent.shape?.kind === 'object' ? fieldNamed(parent.shape, tag.name) : undefined;
    if (!field || !parent.fields) {
      frames.push(frameFor(undefined, 0));
      return;
    }
    path.push(field.name);
    if (field.shape.kind !== 'array') {
      frames.push(frameFor(field.shape, 1));
      return;
    }
    const items = (parent.fields[field.name] ??= []) as unknown[];
    if (field.shape.maxItems !== undefined && items.length >= field.shape.maxItems) {
      throw boundExceeded('array', field.shape.maxItems, path);
    }
    path.push(items.length);
    frames.push(frameFor(field.shape.item, 2));
  };
  parser.onattribute = () => {
    elementAttributes += 1;
    attributes += 1;
    if (elementAttributes > limits.maxAttributesPerElement)
      throw new XmlFormatError(`more than ${limits.maxAttributesPerElement} attributes on one element`);
    if (attributes > limits.maxAttributes)
      throw new XmlFormatError(`more than ${limits.maxAttributes} attributes`);
  };
  parser.onopentag = () => {
    startTag = undefined;
  };
  parser.ontext = addText;
  parser.oncdata = addText;
  parser.onclosetag = () => {
    const frame = frames.pop()!;
    const parent = frames[frames.length - 1];
    if (parent?.fields && frame.shape && frame.pathLength > 0) {
      const name = path[path.length - frame.pathLength] as string;
      const value = valueOf(frame, frame.shape);
      // A list's item is added; any other field, like a repeated key in JSON: the last one wins.
      if (frame.pathLength === 2) (parent.fields[name] as unknown[]).push(value);
      else parent.fields[name] = value;
    }
    path.length -= frame.pathLength;
  };
  parser.onerror = (error) => {
    // sax's message names the problem on its first line, then the position.
    throw new XmlFormatError(
      `malformed XML: ${error.message.split('\n')[0]?.toLowerCase() ?? 'syntax error'}`,
    );
  };

  const checkMarkup = () => {
    const longest = Math.max(
      buffers.tagName.length,
      buffers.attribName.length,
      buffers.comment.length,
      buffers.procInstName.length + buffers.procInstBody.length,
      buffers.sgmlDecl.length,
      buffers.doctype.length,
      buffers.entity.length,
      startTag === undefined ? 0 : parser.position - startTag,
    );
    if (longest > limits.maxMarkupLength) {
      throw new XmlFormatError(`markup longer than ${limits.maxMarkupLength} characters`);
    }
    const frame = frames[frames.length - 1];
    if (frame) checkText(frame, buffers.textNode.length + buffers.cdata.length);
  };
  for (let at = 0; at < text.length; at += CHUNK) {
    parser.write(text.slice(at, at + CHUNK));
    checkMarkup();
  }
  parser.close();
  return root ? valueOf(root, shape) : {};
}
