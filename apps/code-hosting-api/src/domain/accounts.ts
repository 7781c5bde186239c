import { createHash, randomBytes } from 'node:crypto';
import { badRequest, forbidden, notFound } from '@repo/http-errors';
import type { AccountChanges } from './account-store';
import type { Store } from './store';
import { accountExistsError, assertUsableAccountName, assertValidEmail } from './account-names';
import { visibleAccount } from './access';
import { isSiteAdmin, requireUser, type Caller } from './caller';
import { offsetOf, type ListOptions } from './pagination';
import { hashPassword, standInHash, verifyPassword } from './passwords';
import type { AccountRecord, Page, TokenRecord, Visibility } from './records';
import { tokenAccountUsable } from './token-caller';
import { knownScopes } from './token-scopes';
import type { RequestedNumber } from './requested-number';
import { TokenUseRecorder } from './token-use';

export interface NewUser {
  username: string;
  email: string;
  password: string;
  fullName?: string;
  visibility?: Visibility;
  isAdmin?: boolean;
}

export interface UserChanges {
  password?: string;
  email?: string;
  fullName?: string;
  visibility?: Visibility;
  isAdmin?: boolean;
  allowCreateOrganization?: boolean;
  active?: boolean;
  description?: string;
  website?: string;
  location?: string;
}

/** The deployment settings account rules read. */
export interface AccountSettings {
  passwordHashCost: number;
  /** Whether new users may create organizations. */
  defaultAllowCreateOrganization: boolean;
  /** A token's last use is written at most once per this many milliseconds. */
  tokenUseIntervalMs: number;
}

/** Tokens whose last write one process remembers (a few hundred bytes each at most). */
const trackedTokens = 10_000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * onBackgroundError: a write that runs after the request was answered (a token's last use) failed;
 * the caller logs it, with the origin the request gave (its id). clock: the time a token's use is
 * recorded at.
 */
export function accountService(
  store: Store,
  settings: AccountSettings,
  onBackgroundError: (error: unknown, origin: string | undefined) => void = () => {},
  clock: () => number = Date.now,
) {
  const tokenUse = new TokenUseRecorder(store, {
    intervalMs: settings.tokenUseIntervalMs,
    maxTracked: trackedTokens,
    onError: onBackgroundError,
    now: clock,
  });

  async function createUserAccount(user: NewUser): Promise<AccountRecord> {
    const created = await addUserAccount(user);
    if (!created) throw accountExistsError(user.username);
    return created;
  }

  /** The new account, or undefined when the name is taken (a concurrent creation may have won). */
  async function addUserAccount(user: NewUser): Promise<AccountRecord | undefined> {
    assertUsableAccountName(user.username, 'username');
    assertValidEmail(user.email);
    if (await store.findAccountByName(user.username)) return undefined;
    const created = await store.createUser({
      name: user.username,
      type: 'user',
      email: user.email,
      fullName: user.fullName ?? '',
      visibility: user.visibility ?? 'public',
      isAdmin: user.isAdmin ?? false,
      allowCreateOrganization: settings.defaultAllowCreateOrganization,
      passwordHash: await hashPassword(user.password, settings.passwordHashCost),
    });
    // A concurrent creation of the same name may have won since the check above.
    return created.kind === 'name-taken' ? undefined : created.value;
  }

  async function issueToken(
    account: AccountRecord,
    name: string,
    scopes: string[],
  ): Promise<{ token: TokenRecord; secret: string }> {
    if (scopes.length === 0) throw badRequest('access token must have a scope');
    const unknown = scopes.filter((scope) => !knownScopes.has(scope));
    if (unknown.length) throw badRequest(`invalid access token scope: ${unknown.join(', ')}`);
    if (await store.findTokenNamed(account.id, name))
      throw badRequest('access token name has been used already');
    const secret = randomBytes(20).toString('hex');
    const created = await store.createToken({
      accountId: account.id,
      name,
      tokenHash: hashToken(secret),
      tokenLastEight: secret.slice(-8),
      scopes: [...new Set(scopes)],
    });
    if (created.kind === 'name-taken') throw badRequest('access token name has been used already');
    return { token: created.value, secret };
  }

  /** The user a path names, when the caller may see them. */
  const visibleUser = (caller: Caller, username: string) => visibleAccount(store, caller, 'user', username);

  function requireSiteAdmin(caller: Caller): void {
    requireUser(caller);
    if (!isSiteAdmin(caller)) throw forbidden('must be a site administrator');
  }

  /** Gitea's reqSelfOrAdmin. */
  async function selfOrAdmin(caller: Caller, username: string): Promise<AccountRecord> {
    const user = requireUser(caller);
    if (user.lowerName === username.toLowerCase()) return user;
    if (!isSiteAdmin(caller)) throw forbidden('you may only manage your own account');
    const account = await store.findAccountByName(username);
    if (!account || account.type !== 'user') throw notFound(`user ${username} does not exist`);
    return account;
  }

  return {
    createUserAccount,
    issueToken,
    visibleUser,

    /**
     * The account and scopes of the token with that secret, when it authenticates (a user's,
     * active), its use recorded; `origin` (the request's id) names it if that write fails.
     */
    async authenticateToken(
      secret: string,
      origin?: string,
    ): Promise<{ account: AccountRecord; scopes: string[] } | undefined> {
      const found = await store.findTokenByHash(hashToken(secret));
      if (!found || !tokenAccountUsable(found.account)) return undefined;
      tokenUse.record(found.token.id, origin);
      return { account: found.account, scopes: found.token.scopes };
    },

    /** Resolves once the token-use writes started so far are done. */
    tokenUseSettled: () => tokenUse.settled(),

    /**
     * The account, when the password is its own and it may log in. Every refusal costs one password
     * check, a name no user has (or a user without a password) checked against a stand-in hash of
     * the configured cost: how long the answer takes does not tell which accounts exist.
     */
    async authenticatePassword(username: string, password: string): Promise<AccountRecord | undefined> {
      const credentials = await store.findUserCredentials(username);
      const stored = credentials?.passwordHash;
      const matches = await verifyPassword(password, stored ?? standInHash(settings.passwordHashCost));
      if (!credentials || stored === undefined || !matches || !credentials.account.isActive) return undefined;
      await store.recordLogin(credentials.account.id);
      return credentials.account;
    },

    findAccount: (name: string) => store.findAccountByName(name),

    /** Gitea's reqSiteAdmin: 401 anonymous, 403 for anyone but a site administrator. */
    requireSiteAdmin,

    /** Who may manage the tokens of that account (Gitea's reqSelfOrAdmin). */
    selfOrAdmin,

    /** POST /admin/users. */
    async adminCreateUser(caller: Caller, user: NewUser): Promise<AccountRecord> {
      requireSiteAdmin(caller);
      return createUserAccount(user);
    },

    /** PATCH /admin/users/{username}: only supplied fields change. */
    async adminEditUser(caller: Caller, username: string, changes: UserChanges): Promise<AccountRecord> {
      requireSiteAdmin(caller);
      const account = await store.findAccountByName(username);
      if (!account || account.type !== 'user') throw notFound(`user ${username} does not exist`);
      if (changes.email !== undefined) assertValidEmail(changes.email);
      const { active, password, ...rest } = changes;
      if (password !== undefined)
        await store.setPasswordHash(account.id, await hashPassword(password, settings.passwordHashCost));
      const update: AccountChanges = { ...rest, ...(active === undefined ? {} : { isActive: active }) };
      return store.updateAccount(
        account.id,
        Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined)),
      );
    },

    /** POST /users/{username}/tokens (the HTTP layer insists on basic auth). */
    async createToken(caller: Caller, username: string, name: string, scopes: string[]) {
      const account = await selfOrAdmin(caller, username);
      return issueToken(account, name, scopes);
    },

    /** GET /users/{username}/tokens: the account's tokens, newest first (their secrets are not kept). */
    async listTokens(caller: Caller, username: string, options: ListOptions): Promise<Page<TokenRecord>> {
      const account = await selfOrAdmin(caller, username);
      return store.listTokens(account.id, offsetOf(options), options.pageSize);
    },

    /** DELETE /users/{username}/tokens/{token}: by id (when it reads as one), else by name. */
    async deleteToken(caller: Caller, username: string, idOrName: RequestedNumber): Promise<void> {
      const account = await selfOrAdmin(caller, username);
      const byId =
        idOrName.value === undefined ? undefined : await store.findTokenById(account.id, idOrName.value);
      const token = byId ?? (await store.findTokenNamed(account.id, idOrName.text));
      if (!token) throw notFound(`access token ${idOrName.text} does not exist`);
      await store.deleteToken(token.id);
    },

    /**
     * Start-up: ensure the configured site administrator exists. Without configuration (development),
     * create one with a generated password the first time; returns the secrets to print once.
     */
    async bootstrapAdmin(
      admin: { username: string; password: string; email?: string } | undefined,
      development: boolean,
    ): Promise<{ username: string; password?: string; token: string } | undefined> {
      // Replicas starting together race here: the one whose creation wins creates, the others
      // find the account made (a name taken is never a failed start).
      if (admin) {
        const created = await addUserAccount({
          username: admin.username,
          password: admin.password,
          email: admin.email ?? `${admin.username}@localhost`,
          isAdmin: true,
        });
        const existing = created ? undefined : await store.findAccountByName(admin.username);
        if (existing?.type === 'user' && !existing.isAdmin) {
          await store.updateAccount(existing.id, { isAdmin: true });
        }
        return undefined;
      }
      if (!development || (await store.anyAdminExists())) return undefined;
      const password = randomBytes(12).toString('base64url');
      const account = await addUserAccount({
        username: 'root',
        password,
        email: 'root@localhost',
        isAdmin: true,
      });
      if (!account) {
        if (await store.anyAdminExists()) return undefined;
        throw accountExistsError('root');
      }
      const { secret } = await issueToken(account, 'bootstrap', ['all']);
      return { username: account.name, password, token: secret };
    },
  };
}

export type AccountService = ReturnType<typeof accountService>;
