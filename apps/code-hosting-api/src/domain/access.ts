import type { Store } from './store';
import { isSiteAdmin, type Caller } from './caller';
import {
  highestLevel,
  levelRank,
  type AccessLevel,
  type AccountRecord,
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

export async function membershipOf(store: Store, org: AccountRecord, userId: number): Promise<Membership> {
  const teams = await store.teamsOfMember(org.id, userId);
  const level = highestLevel(teams.map((team) => team.permission));
  return {
    teams,
    level,
    isMember: teams.length > 0,
    canCreateRepository: level === 'owner' || teams.some((team) => team.canCreateOrgRepo),
  };
}

/**
 * Public accounts: everyone. Limited: signed-in callers. Private: site admins, the
 * account itself and, for organizations, their members. A public-only token sees public only.
 */
export async function canSeeAccount(store: Store, caller: Caller, account: AccountRecord): Promise<boolean> {
  if (account.visibility === 'public') return true;
  if (!caller.user || caller.publicOnly) return false;
  if (account.visibility === 'limited') return true;
  if (caller.user.isAdmin || caller.user.id === account.id) return true;
  return account.type === 'organization' && (await membershipOf(store, account, caller.user.id)).isMember;
}

export async function repositoryLevel(
  store: Store,
  caller: Caller,
  repository: RepositoryRecord,
): Promise<AccessLevel> {
  const user = caller.user;
  if (caller.publicOnly && (repository.isPrivate || repository.owner.visibility !== 'public')) return 'none';
  if (isSiteAdmin(caller)) return 'owner';
  let granted: AccessLevel = 'none';
  if (user) {
    if (repository.owner.id === user.id) return 'owner';
    if (repository.owner.type === 'organization') {
      const membership = await membershipOf(store, repository.owner, user.id);
      if (membership.level === 'owner') return 'owner';
      granted = highestLevel(
        membership.teams.filter((team) => team.includesAllRepositories).map((team) => team.permission),
      );
    }
    granted = highestLevel([granted, await store.collaboratorLevel(repository.id, user.id)]);
  }
  if (levelRank(granted) >= levelRank('read')) return granted;
  if (!repository.isPrivate && (await canSeeAccount(store, caller, repository.owner))) return 'read';
  return 'none';
}

export function atLeast(level: AccessLevel, required: AccessLevel): boolean {
  return levelRank(level) >= levelRank(required);
}
