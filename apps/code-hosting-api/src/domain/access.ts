import { forbidden, notFound } from '@repo/http-errors';
import type { AccountVisibilityScope } from './account-store';
import type { Store } from './store';
import { isSiteAdmin, requireUser, type Caller } from './caller';
import {
  highestLevel,
  levelRank,
  visibilities,
  type AccessLevel,
  type AccountRecord,
  type AccountType,
  type RepositoryAccessFacts,
  type RepositoryRecord,
  type TeamRecord,
} from './records';

// Who sees what and who may do what: Gitea's HasOrgOrUserVisible, GetOrgUserMaxAuthorizeLevel,
// CanCreateOrgRepo and repository access, in one place.

export interface Membership {
  teams: TeamRecord[];
  level: AccessLevel;
  isMember: boolean;
  canCreateRepository: boolean;
}

/** Not a member of anything: no teams. */
const noMembership: Membership = { teams: [], level: 'none', isMember: false, canCreateRepository: false };

export async function membershipOf(store: Store, org: AccountRecord, userId: number): Promise<Membership> {
  return membershipFrom(await store.teamsOfMember(org.id, userId));
}

/** What belonging to these teams of an organization allows. */
export function membershipFrom(teams: TeamRecord[]): Membership {
  const level = highestLevel(teams.map((team) => team.permission));
  return {
    teams,
    level,
    isMember: teams.length > 0,
    canCreateRepository: level === 'owner' || teams.some((team) => team.canCreateOrgRepo),
  };
}

/**
 * The one statement of the rule. Public accounts: everyone. Limited: signed-in callers. Private:
 * site admins, the account itself and, for organizations, their members. A public-only token sees
 * public accounts only.
 */
export function accountVisibilityScope(caller: Caller): AccountVisibilityScope {
  if (!caller.user || caller.publicOnly) return { visibilities: ['public'], memberVisibilities: [] };
  if (caller.user.isAdmin) return { visibilities: [...visibilities], memberVisibilities: [] };
  return { visibilities: ['public', 'limited'], memberId: caller.user.id, memberVisibilities: ['private'] };
}

/** Whether the caller sees the account, given whether they are a member of it (organizations). */
export function seesAccount(caller: Caller, account: AccountRecord, callerIsMember: boolean): boolean {
  const scope = accountVisibilityScope(caller);
  if (scope.visibilities.includes(account.visibility)) return true;
  if (!scope.memberVisibilities.includes(account.visibility)) return false;
  return account.id === scope.memberId || (account.type === 'organization' && callerIsMember);
}

/** Whether the caller sees the account; looks membership up only when the answer depends on it. */
export async function canSeeAccount(store: Store, caller: Caller, account: AccountRecord): Promise<boolean> {
  if (seesAccount(caller, account, false)) return true;
  if (!caller.user || account.type !== 'organization' || !seesAccount(caller, account, true)) return false;
  return (await membershipOf(store, account, caller.user.id)).isMember;
}

const notFoundMessage: Record<AccountType, (name: string) => string> = {
  user: (name) => `user ${name} does not exist`,
  organization: (name) => `organization ${name} does not exist`,
};

/** The account of that type a path names when the caller may see it; 404 otherwise, as if it did not exist. */
export async function visibleAccount(
  store: Store,
  caller: Caller,
  type: AccountType,
  name: string,
): Promise<AccountRecord> {
  const account = await store.findAccountByName(name);
  if (!account || account.type !== type || !(await canSeeAccount(store, caller, account))) {
    throw notFound(notFoundMessage[type](name));
  }
  return account;
}

/** The organization a path names when the caller may see it; 404 otherwise, as if it did not exist. */
export function visibleOrganization(store: Store, caller: Caller, name: string): Promise<AccountRecord> {
  return visibleAccount(store, caller, 'organization', name);
}

/** Gitea's reqOrgOwnership: site admins and members of an owner-level team (not through a public-only token). */
export async function requireOrganizationOwner(
  store: Store,
  caller: Caller,
  org: AccountRecord,
): Promise<void> {
  const user = requireUser(caller);
  if (isSiteAdmin(caller)) return;
  if (caller.publicOnly || !ownsOrganization(caller, await membershipOf(store, org, user.id))) {
    throw forbidden('must be an organization owner');
  }
}

/** The rule of requireOrganizationOwner on a membership already known. */
function ownsOrganization(caller: Caller, membership: Membership): boolean {
  return isSiteAdmin(caller) || (!caller.publicOnly && membership.level === 'owner');
}

/**
 * The caller's level on a repository when it needs no membership or collaborator lookup: none
 * through a public-only token on anything not public, owner for a site administrator and for the
 * repository's owner. Undefined when memberships and collaborations decide.
 */
function levelWithoutLookups(caller: Caller, repository: RepositoryAccessFacts): AccessLevel | undefined {
  if (caller.publicOnly && (repository.isPrivate || repository.owner.visibility !== 'public')) return 'none';
  if (isSiteAdmin(caller)) return 'owner';
  if (caller.user && repository.owner.id === caller.user.id) return 'owner';
  return undefined;
}

/**
 * The caller's access level on a repository, from what is already known: the caller's membership
 * of the owning organization (none for a user-owned repository or an anonymous caller) and their
 * collaborator level on the repository.
 */
export function repositoryLevelFrom(
  caller: Caller,
  repository: RepositoryAccessFacts,
  membership: Membership,
  collaboration: AccessLevel,
): AccessLevel {
  const known = levelWithoutLookups(caller, repository);
  if (known) return known;
  const user = caller.user;
  let granted: AccessLevel = 'none';
  if (user) {
    if (repository.owner.type === 'organization') {
      if (membership.level === 'owner') return 'owner';
      granted = highestLevel(
        membership.teams.filter((team) => team.includesAllRepositories).map((team) => team.permission),
      );
    }
    granted = highestLevel([granted, collaboration]);
  }
  if (levelRank(granted) >= levelRank('read')) return granted;
  if (!repository.isPrivate && seesAccount(caller, repository.owner, membership.isMember)) return 'read';
  return 'none';
}

/** The caller's membership of an organization that owns repositories (none when that cannot matter). */
export async function ownerMembership(
  store: Store,
  caller: Caller,
  owner: AccountRecord,
): Promise<Membership> {
  if (!caller.user || isSiteAdmin(caller) || owner.type !== 'organization') return noMembership;
  return membershipOf(store, owner, caller.user.id);
}

/** The caller's access level on a repository, looking up only what repositoryLevelFrom needs. */
export async function repositoryLevel(
  store: Store,
  caller: Caller,
  repository: RepositoryRecord,
): Promise<AccessLevel> {
  const known = levelWithoutLookups(caller, repository);
  if (known) return known;
  const user = caller.user;
  if (!user) return repositoryLevelFrom(caller, repository, noMembership, 'none');
  const membership = await ownerMembership(store, caller, repository.owner);
  // An organization owner's level does not depend on collaborations: no need to look one up.
  const collaboration =
    membership.level === 'owner' ? 'none' : await store.collaboratorLevel(repository.id, user.id);
  return repositoryLevelFrom(caller, repository, membership, collaboration);
}

export function atLeast(level: AccessLevel, required: AccessLevel): boolean {
  return levelRank(level) >= levelRank(required);
}
