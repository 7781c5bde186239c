import { badRequest } from '@repo/http-errors';
import type { BodyCodec } from '../body-codecs';
import { decodeXmlRepresentation, XmlFormatError } from './xml-decoder';
import { encodeXmlRepresentation, xmlItemRenderer, xmlRootClose, xmlRootOpen } from './xml-encoder';

/** Rows rendered before a write: a few hundred kilobytes per chunk. */
const CHUNK_BYTES = 256 * 1024;

/** XML as Go's encoding/xml reads and writes it with the JSON names as tags. */
export const xmlCodec: BodyCodec = {
  mediaTypes: ['application/xml', 'text/xml'],
  contentType: 'application/xml; charset=utf-8',
  listNeedsTwoPasses: false,
  decode(body, shape) {
    try {
      return decodeXmlRepresentation(body, shape);
    } catch (error) {
      if (error instanceof XmlFormatError) throw badRequest(`malformed request body: ${error.message}`);
      throw error;
    }
  },
  encode(shape, value) {
    return encodeXmlRepresentation(shape, value);
  },
  async encodeListStream(shape, field, list, write) {
    const renderItem = xmlItemRenderer(shape, field);
    await write(xmlRootOpen(shape));
    let chunk = '';
    for await (const batch of list.batches()) {
      for (const item of batch) {
        chunk += renderItem(item);
        if (chunk.length >= CHUNK_BYTES) {
          await write(chunk);
          chunk = '';
        }
      }
    }
    await write(chunk + xmlRootClose(shape));
  },
};
