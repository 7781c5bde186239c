import { badRequest } from '@repo/http-errors';
import type { BodyCodec } from './body-codecs';

// Fatal: Buffer#toString would silently store U+FFFD for every invalid sequence. The BOM is kept,
// so a body starting with one stays malformed JSON, as before.
/** Items encoded before a write: one socket write of tens of kilobytes, never a whole batch. */
const CHUNK_CHARACTERS = 64 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export const jsonCodec: BodyCodec = {
  mediaTypes: ['application/json'],
  contentType: 'application/json; charset=utf-8',
  listNeedsTwoPasses: false,
  decode(body) {
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      throw badRequest('malformed request body: not valid UTF-8');
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // JSON.parse messages quote the body: never echo them.
      throw badRequest('malformed request body: not valid JSON');
    }
  },
  encode(_shape, value) {
    return JSON.stringify(value);
  },
  async encodeListStream(_shape, field, list, write) {
    let chunk = `{${JSON.stringify(field)}:[`;
    let first = true;
    for await (const batch of list.batches()) {
      for (const item of batch) {
        chunk += `${first ? '' : ','}${JSON.stringify(item)}`;
        first = false;
        if (chunk.length >= CHUNK_CHARACTERS) {
          await write(chunk);
          chunk = '';
        }
      }
    }
    await write(`${chunk}]}`);
  },
};
