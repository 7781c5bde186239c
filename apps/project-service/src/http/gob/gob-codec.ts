import { badRequest } from '@repo/http-errors';
import type { BodyCodec } from '../body-codecs';
import { GobFormatError } from './gob-format-error';
import { decodeGobRepresentation, encodeGobRepresentation, streamGobList } from './representation';

/** Go's encoding/gob: what a Go client's `gob.NewEncoder(w).Encode(&v)` writes and `Decode` reads. */
export const gobCodec: BodyCodec = {
  mediaTypes: ['application/gob', 'application/x-gob'],
  contentType: 'application/gob',
  listNeedsTwoPasses: true,
  decode(body, shape) {
    try {
      return decodeGobRepresentation(body, shape);
    } catch (error) {
      if (error instanceof GobFormatError) throw badRequest(`malformed request body: gob: ${error.message}`);
      throw error;
    }
  },
  encode(shape, value) {
    return encodeGobRepresentation(shape, value);
  },
  encodeListStream(shape, field, list, write) {
    return streamGobList(shape, field, list, write);
  },
};
