import { forbidden, notFound, unauthorized } from '@repo/http-errors';
import type { Request, RequestHandler, Response } from 'express';
import type { AccountService } from '../domain/accounts';
import { anonymous, type Caller } from '../domain/caller';
import { isPublicOnly } from '../domain/token-scopes';
import { setRequestActor } from '../request-context';
import type { LoginThrottle } from '../domain/login-throttle';
import { loginAddress } from './login-throttle';

/** The caller plus how they proved it: token scopes (undefined for a password or no credentials) and whether Basic auth was used. */
export interface Authentication {
  caller: Caller;
  scopes: string[] | undefined;
  viaBasicPassword: boolean;
}

const invalidCredentials = 'invalid username, password or token';

function firstQueryValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

export function authenticationOf(res: Response): Authentication {
  return (
    (res.locals['authentication'] as Authentication | undefined) ?? {
      caller: anonymous,
      scopes: undefined,
      viaBasicPassword: false,
    }
  );
}

async function fromToken(accounts: AccountService, secret: string): Promise<Authentication> {
  const found = await accounts.authenticateToken(secret);
  if (!found) throw unauthorized(invalidCredentials);
  return {
    caller: { user: found.account, publicOnly: isPublicOnly(found.scopes) },
    scopes: found.scopes,
    viaBasicPassword: false,
  };
}

/**
 * Gitea's Basic method: a token as the username (empty or x-oauth-basic password) or as the
 * password, else a password, checked only while the login throttle lets this address try.
 */
async function fromBasic(
  accounts: AccountService,
  throttle: LoginThrottle,
  encoded: string,
  address: string,
): Promise<Authentication> {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  const username = separator < 0 ? decoded : decoded.slice(0, separator);
  const password = separator < 0 ? '' : decoded.slice(separator + 1);
  const tokenCandidate = password === '' || password === 'x-oauth-basic' ? username : password;
  if (/^[0-9a-f]{40}$/.test(tokenCandidate)) {
    const found = await accounts.authenticateToken(tokenCandidate);
    if (found) {
      return {
        caller: { user: found.account, publicOnly: isPublicOnly(found.scopes) },
        scopes: found.scopes,
        viaBasicPassword: false,
      };
    }
  }
  const attempt = await throttle.attempt(username, address);
  const account = await accounts.authenticatePassword(username, password);
  if (!account) {
    await attempt.failed();
    throw unauthorized(invalidCredentials);
  }
  await attempt.succeeded();
  return { caller: { user: account, publicOnly: false }, scopes: undefined, viaBasicPassword: true };
}

async function authenticationFrom(
  accounts: AccountService,
  throttle: LoginThrottle,
  req: Request,
): Promise<Authentication> {
  const header = req.headers.authorization?.trim();
  const queryToken = firstQueryValue(req.query['token']) ?? firstQueryValue(req.query['access_token']);
  if (header) {
    const [scheme = '', credentials = ''] = header.split(/\s+/, 2);
    switch (scheme.toLowerCase()) {
      case 'token':
      case 'bearer':
        return fromToken(accounts, credentials);
      case 'basic':
        return fromBasic(accounts, throttle, credentials, loginAddress(req));
      default:
        throw unauthorized(invalidCredentials);
    }
  }
  if (queryToken) return fromToken(accounts, queryToken);
  return { caller: anonymous, scopes: undefined, viaBasicPassword: false };
}

/** Site administrators may act as another user with the `Sudo` header or `sudo` query. */
async function applySudo(
  accounts: AccountService,
  req: Request,
  authentication: Authentication,
): Promise<Authentication> {
  const target = req.get('Sudo') ?? firstQueryValue(req.query['sudo']);
  if (!target) return authentication;
  const user = authentication.caller.user;
  if (!user?.isAdmin) throw forbidden('Only administrators allowed to sudo.');
  const account = await accounts.findAccount(target);
  if (!account || account.type !== 'user') throw notFound(`user ${target} does not exist`);
  return { ...authentication, caller: { ...authentication.caller, user: account }, viaBasicPassword: false };
}

/** Records the request's Authentication (anonymous without credentials) for the routes. */
export function authenticate(accounts: AccountService, throttle: LoginThrottle): RequestHandler {
  return async (req, res, next) => {
    const authentication = await applySudo(accounts, req, await authenticationFrom(accounts, throttle, req));
    res.locals['authentication'] = authentication;
    // The change events' `actor`: the user the request acts as (the Sudo target under Sudo).
    if (authentication.caller.user) setRequestActor(authentication.caller.user.name);
    next();
  };
}
