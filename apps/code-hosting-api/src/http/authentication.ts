import { forbidden, notFound, unauthorized, unprocessableEntity } from '@repo/http-errors';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { AccountService } from '../domain/accounts';
import { anonymous, type Caller } from '../domain/caller';
import { callerOfToken } from '../domain/token-caller';
import { setRequestActor } from '../request-context';
import type { LoginThrottle } from '../domain/login-throttle';
import { loginAddress } from './login-throttle';
import { NUL_REFUSAL, storableText } from './parameters';

/** The caller plus how they proved it: token scopes (undefined for a password or no credentials) and whether Basic auth was used. */
export interface Authentication {
  caller: Caller;
  scopes: string[] | undefined;
  viaBasicPassword: boolean;
}

const invalidCredentials = 'invalid username, password or token';

/** A query parameter's value: the first given (query-string.ts), or undefined. */
function queryValue(req: Request, name: string): string | undefined {
  const value = req.query[name];
  return typeof value === 'string' ? value : undefined;
}

/** A token credential the middleware left for the operation to look up (see `authenticate`). */
interface PendingToken {
  /** The token looked up, refused (401) when it authenticates nobody. */
  resolve(): Promise<Authentication>;
  /** That lookup, once started. */
  lookup?: Promise<Authentication>;
}

const AUTHENTICATION = 'authentication';
const PENDING_TOKEN = 'pendingToken';

/**
 * The request's Authentication (anonymous without credentials); a token left pending is looked up
 * now, and an invalid one refused (401) now.
 */
export async function authenticationOf(res: Response): Promise<Authentication> {
  const pending = res.locals[PENDING_TOKEN] as PendingToken | undefined;
  if (pending) {
    // Looked up once. Settled only when it authenticates: a refused token stays pending, refused
    // again (without another lookup) if asked again.
    pending.lookup ??= pending.resolve();
    const authentication = await pending.lookup;
    delete res.locals[PENDING_TOKEN];
    recordAuthentication(res, authentication);
  }
  return (
    (res.locals[AUTHENTICATION] as Authentication | undefined) ?? {
      caller: anonymous,
      scopes: undefined,
      viaBasicPassword: false,
    }
  );
}

/** Where the routes find the request's Authentication. */
function recordAuthentication(res: Response, authentication: Authentication): void {
  res.locals[AUTHENTICATION] = authentication;
  // The change events' `actor`: the user the request acts as (the Sudo target under Sudo).
  if (authentication.caller.user) setRequestActor(authentication.caller.user.name);
}

async function fromToken(accounts: AccountService, secret: string, req: Request): Promise<Authentication> {
  const found = await accounts.authenticateToken(secret, req.id);
  if (!found) throw unauthorized(invalidCredentials);
  return {
    caller: callerOfToken({ account: found.account, scopes: found.scopes }),
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
  requestId: string,
): Promise<Authentication> {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  const username = separator < 0 ? decoded : decoded.slice(0, separator);
  const password = separator < 0 ? '' : decoded.slice(separator + 1);
  const tokenCandidate = password === '' || password === 'x-oauth-basic' ? username : password;
  if (/^[0-9a-f]{40}$/.test(tokenCandidate)) {
    const found = await accounts.authenticateToken(tokenCandidate, requestId);
    if (found) {
      return {
        caller: callerOfToken({ account: found.account, scopes: found.scopes }),
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
  const queryToken = queryValue(req, 'token') ?? queryValue(req, 'access_token');
  if (header) {
    const [scheme = '', credentials = ''] = header.split(/\s+/, 2);
    switch (scheme.toLowerCase()) {
      case 'token':
      case 'bearer':
        return fromToken(accounts, credentials, req);
      case 'basic':
        return fromBasic(accounts, throttle, credentials, loginAddress(req), req.id);
      default:
        throw unauthorized(invalidCredentials);
    }
  }
  if (queryToken) return fromToken(accounts, queryToken, req);
  return { caller: anonymous, scopes: undefined, viaBasicPassword: false };
}

/** Site administrators may act as another user with the `Sudo` header or `sudo` query. */
async function applySudo(
  accounts: AccountService,
  req: Request,
  authentication: Authentication,
): Promise<Authentication> {
  const target = req.get('Sudo') ?? queryValue(req, 'sudo');
  if (!target) return authentication;
  const user = authentication.caller.user;
  if (!user?.isAdmin) throw forbidden('Only administrators allowed to sudo.');
  if (!storableText(target)) throw unprocessableEntity(`sudo: ${NUL_REFUSAL}`);
  const account = await accounts.findAccount(target);
  if (!account || account.type !== 'user') throw notFound(`user ${target} does not exist`);
  return { ...authentication, caller: { ...authentication.caller, user: account }, viaBasicPassword: false };
}

/** The token of a request that sends one alone (Authorization: token/bearer, or ?token=), else undefined. */
function plainToken(req: Request): string | undefined {
  if (req.get('Sudo') !== undefined || queryValue(req, 'sudo') !== undefined) return undefined;
  const header = req.headers.authorization?.trim();
  if (header) {
    const [scheme = '', credentials = ''] = header.split(/\s+/, 2);
    const kind = scheme.toLowerCase();
    return kind === 'token' || kind === 'bearer' ? credentials : undefined;
  }
  // An empty one is no credential (anonymous), as authenticationFrom has it.
  return (queryValue(req, 'token') ?? queryValue(req, 'access_token')) || undefined;
}

/**
 * Records the request's Authentication (anonymous without credentials) for the routes. A token
 * sent alone is left pending: looked up when an operation asks who the caller is
 * (authenticationOf), or after the routes for a request no operation took (settleAuthentication);
 * every other credential is checked here.
 */
export function authenticate(accounts: AccountService, throttle: LoginThrottle): RequestHandler {
  return async (req, res, next) => {
    const secret = plainToken(req);
    if (secret !== undefined) {
      const pending: PendingToken = { resolve: () => fromToken(accounts, secret, req) };
      res.locals[PENDING_TOKEN] = pending;
      next();
      return;
    }
    recordAuthentication(
      res,
      await applySudo(accounts, req, await authenticationFrom(accounts, throttle, req)),
    );
    next();
  };
}

/**
 * After the API's routes: a request no operation took (404, or a path's other methods) still has
 * its token checked first, as every credential is (401 before 404).
 */
export const settleAuthentication: RequestHandler = async (_req, res, next) => {
  await authenticationOf(res);
  next();
};

/**
 * After the API's routes, for a request that failed before any operation ran (a path Express could
 * not decode): its token is checked first too, and a refused one answers 401 instead.
 */
export const settleAuthenticationOnError: ErrorRequestHandler = (error, _req, res, next) => {
  authenticationOf(res).then(
    () => next(error),
    (refusal: unknown) => next(refusal),
  );
};
