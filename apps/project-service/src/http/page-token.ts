import { badRequest } from '@repo/http-errors';
import type { ListCursor } from '../domain/records';
import { storableText, UUID_PATTERN } from './schemas';

/** Opaque to clients: base64url of the last row's (name, uid). */
export function encodePageToken(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify([cursor.name, cursor.uid]), 'utf8').toString('base64url');
}

export function decodePageToken(token: string): ListCursor {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Array.isArray(decoded) && decoded.length === 2) {
      const [name, uid] = decoded as unknown[];
      // A name no column holds (NUL) was never issued: it never reaches the statement.
      if (typeof name === 'string' && storableText(name) && typeof uid === 'string' && UUID_PATTERN.test(uid))
        return { name, uid };
    }
  } catch {
    // fall through: any undecodable token is the same client error
  }
  throw badRequest('page_token: is not a token this service issued');
}
