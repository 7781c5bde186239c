import { badRequest } from '@repo/http-errors';
import type { BodyCodec } from './body-codecs';

// Fatal: Buffer#toString would silently store U+FFFD for every invalid sequence. The BOM is kept,
// so a body starting with one stays malformed JSON, as before.
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
    await write(`{${JSON.stringify(field)}:[`);
    let first = true;
    for await (const batch of list.batches()) {
      const pieces = batch.map((item) => JSON.stringify(item));
      if (pieces.length === 0) continue;
      await write(`${first ? '' : ','}${pieces.join(',')}`);
      first = false;
    }
    await write(']}');
  },
};
