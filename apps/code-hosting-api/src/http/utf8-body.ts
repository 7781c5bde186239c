import type { IncomingMessage, ServerResponse } from 'node:http';
import { unprocessableEntity } from '@repo/http-errors';

// Fatal: body-parser decodes with iconv-lite, which silently turns every invalid sequence
// (a Latin-1 é, an overlong C0 AF, a lone continuation byte, a truncated sequence) into U+FFFD,
// and a name the client never sent would be stored.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * express.json's `verify` hook: a body declared (or defaulted to) UTF-8 must be valid UTF-8,
 * else 422 as Gitea answers a body it cannot bind. UTF-16/32 bodies are left to body-parser.
 */
export function refuseInvalidUtf8(
  _req: IncomingMessage,
  _res: ServerResponse,
  body: Buffer,
  encoding: string,
): void {
  if (!/^utf-?8$/i.test(encoding)) return;
  try {
    utf8.decode(body);
  } catch {
    throw unprocessableEntity('malformed request body: not valid UTF-8');
  }
}
