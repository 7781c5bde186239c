import { unauthorized } from '@repo/http-errors';
import type { AccountRecord } from './records';

/** Who is asking: nobody, or a user, possibly through a token restricted to public data. */
export interface Caller {
  user: AccountRecord | undefined;
  /** A `public-only` token: the caller sees public organizations and repositories only. */
  publicOnly: boolean;
}

export const anonymous: Caller = { user: undefined, publicOnly: false };

/** The signed-in user, or Gitea's 401 "token is required". */
export function requireUser(caller: Caller): AccountRecord {
  if (!caller.user) throw unauthorized('token is required');
  return caller.user;
}

export function isSiteAdmin(caller: Caller): boolean {
  return caller.user !== undefined && caller.user.isAdmin && !caller.publicOnly;
}
