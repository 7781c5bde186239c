import { unauthorized } from '@repo/http-errors';
import type { RequestHandler, Response } from 'express';
import type { TokenVerifier } from '../auth/token-verifier';
import type { Caller } from '../domain/caller';
import { authentications, authorizationOutcome, authorizations } from './project-metrics';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer' };

/** Verifies `Authorization: Bearer <JWT>` (or a bare token) and records the caller for the routes. */
export function authenticate(verifyToken: TokenVerifier): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers.authorization?.trim();
    const token = header?.replace(/^Bearer\s+/i, '').trim() ?? '';
    let caller: Caller;
    try {
      if (!header) throw unauthorized('missing Authorization header', { headers: CHALLENGE });
      if (token === '') throw unauthorized('empty bearer token', { headers: CHALLENGE });
      caller = await verifyToken(token);
    } catch (error) {
      authentications.inc({ outcome: 'rejected' });
      throw error;
    }
    authentications.inc({ outcome: 'accepted' });
    res.once('finish', () => authorizations.inc({ outcome: authorizationOutcome(res.statusCode) }));
    res.locals['caller'] = caller;
    next();
  };
}

export function callerOf(res: Response): Caller {
  const caller = res.locals['caller'] as Caller | undefined;
  // Routes are only mounted behind authenticate(); reaching here without a caller is a wiring bug.
  if (!caller) throw new Error('no authenticated caller on this request');
  return caller;
}
