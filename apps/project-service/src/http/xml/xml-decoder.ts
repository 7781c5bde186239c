import sax from 'sax';
import { Parser } from 'xml2js';
import type { ObjectShape, Shape } from '../representation-shape';

/** Malformed or hostile XML; the codec turns it into a 400 naming what was wrong. */
export class XmlFormatError extends Error {
  override readonly name = 'XmlFormatError';
}

export interface XmlDecodeLimits {
  /** Element nesting, the root included: root, field, UserInfo field. */
  maxDepth: number;
  /** Elements in the whole document. */
  maxElements: number;
}

export const XML_LIMITS: XmlDecodeLimits = { maxDepth: 3, maxElements: 20_000 };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Refuses what must never reach the tree builder: a DOCTYPE (entity expansion,
 * external entities), nesting deeper than any representation needs, more
 * elements than any representation holds. A streaming pass that stops at the
 * first violation, so a hostile document costs no more than reading it.
 */
function prescan(text: string, limits: XmlDecodeLimits): void {
  const parser = sax.parser(true);
  let depth = 0;
  let elements = 0;
  parser.ondoctype = () => {
    throw new XmlFormatError('a DOCTYPE is not accepted');
  };
  parser.onopentag = () => {
    depth += 1;
    elements += 1;
    if (depth > limits.maxDepth)
      throw new XmlFormatError(`elements nested deeper than ${limits.maxDepth} levels`);
    if (elements > limits.maxElements) throw new XmlFormatError(`more than ${limits.maxElements} elements`);
  };
  parser.onclosetag = () => {
    depth -= 1;
  };
  parser.onerror = (error) => {
    // sax's message names the problem on its first line, then the position.
    throw new XmlFormatError(
      `malformed XML: ${error.message.split('\n')[0]?.toLowerCase() ?? 'syntax error'}`,
    );
  };
  parser.write(text).close();
}

type XmlNode = string | { [child: string]: XmlNode[] | string | Record<string, string> | undefined };

function parseTree(text: string): XmlNode {
  const parser = new Parser({
    explicitArray: true,
    explicitRoot: false,
    trim: false,
    normalize: false,
    emptyTag: '',
    strict: true,
    async: false,
  });
  let tree: XmlNode = '';
  let failure: unknown;
  parser.parseString(text, (error: unknown, result: XmlNode) => {
    failure = error;
    tree = result ?? '';
  });
  if (failure) throw new XmlFormatError('malformed XML');
  return tree;
}

/** The text of an element: its character data, whether or not it also has attributes or children. */
function textOf(node: XmlNode): string {
  if (typeof node === 'string') return node;
  const text = node['_'];
  return typeof text === 'string' ? text : '';
}

/** One element's content in the JSON form of `shape`; values that do not fit are left for validation to name. */
function valueOf(node: XmlNode, shape: Shape): unknown {
  switch (shape.kind) {
    case 'string':
      return textOf(node);
    case 'boolean': {
      const text = textOf(node).trim();
      return text === 'true' ? true : text === 'false' ? false : textOf(node);
    }
    case 'number': {
      const text = textOf(node).trim();
      return text !== '' && Number.isFinite(Number(text)) ? Number(text) : textOf(node);
    }
    case 'array':
      // A lone array element reads as a one-item array (handled by the caller).
      return [valueOf(node, shape.item)];
    case 'object':
      return objectOf(node, shape);
  }
}

function objectOf(node: XmlNode, shape: ObjectShape): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  if (typeof node === 'string') return result;
  for (const field of shape.fields) {
    const elements = node[field.name];
    if (!Array.isArray(elements) || elements.length === 0) continue;
    if (field.shape.kind === 'array') {
      const item = field.shape.item;
      result[field.name] = elements.map((element) => valueOf(element, item));
    } else {
      // Like a repeated key in JSON: the last one wins.
      result[field.name] = valueOf(elements[elements.length - 1]!, field.shape);
    }
  }
  return result;
}

/**
 * Decodes an XML request body into the JSON form of `shape`: one element per
 * field named as in JSON (any root name), repeated elements for arrays,
 * `true`/`false` for booleans. A missing element is a missing field, as in JSON.
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
  prescan(text, limits);
  return objectOf(parseTree(text), shape);
}
