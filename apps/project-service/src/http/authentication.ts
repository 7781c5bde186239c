import { unauthorized } from '@repo/http-errors';
import type { RequestHandler, Response } from 'express';
import type { TokenVerifier } from '../auth/token-verifier';
import type { Caller } from '../domain/caller';
import { setRequestActor } from '../request-context';
import { authentications, authorizationOutcome, authorizations } from './project-metrics';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer' };
// Labelled once: labelling at every request hashes the labels each time.
const accepted = authentications.labels({ outcome: 'accepted' });
const rejected = authentications.labels({ outcome: 'rejected' });

/** What authenticate() proved about the request. */
export interface Authentication {
  caller: Caller;
}

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
      rejected.inc();
      throw error;
    }
    accepted.inc();
    res.once('finish', () => authorizations.inc({ outcome: authorizationOutcome(res.statusCode) }));
    res.locals['authentication'] = { caller } satisfies Authentication;
    // The `actor` of the change events this request's writes record.
    setRequestActor(caller.principal);
    next();
  };
}

export function authenticationOf(res: Response): Authentication {
  const authentication = res.locals['authentication'] as Authentication | undefined;
  // Routes are only mounted behind authenticate(); reaching here without one is a wiring bug.
  if (!authentication) throw new Error('no authenticated caller on this request');
  return authentication;
}
