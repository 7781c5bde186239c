import type { AccountChanges, AccountVisibilityScope, NewAccount } from './account-store';
import type { AccountRecord, Page, TeamRecord, Visibility } from './records';
import type { WriteOutcome } from './write-outcome';

export interface OrganizationFilter {
  visibleTo: AccountVisibilityScope;
  /** Only the organizations this user belongs to. */
  withMember?: number;
}

/** Who edits an organization, as the one-statement edit's guard needs it. */
export interface OrganizationEditGuard {
  siteAdmin: boolean;
  /** The caller, unless a public-only token (which owns nothing). */
  memberId: number | undefined;
  visibilityChangeAllowed: boolean;
}

export type TeamInsert = Omit<TeamRecord, 'id'>;

/** What a guarded edit wrote: the organization after, its visibility before, the member's teams there. */
export interface GuardedOrganizationEdit {
  organization: AccountRecord;
  previousVisibility: Visibility;
  memberTeams: TeamRecord[];
}

/** Organizations, their teams and team membership. */
export interface OrganizationStore {
  /** Creates the organization with the team the domain describes holding its creator. */
  createOrganization(
    account: NewAccount,
    owners: { team: Omit<TeamInsert, 'orgId'>; memberId: number },
  ): Promise<WriteOutcome<AccountRecord>>;
  /** PATCH /orgs/{org}: applies the changes (its change event with them). */
  updateOrganization(id: number, changes: AccountChanges): Promise<AccountRecord | undefined>;
  /**
   * PATCH /orgs/{org} checked and made in one statement: written only when `guard` allows it (a site
   * administrator, or `memberId` in an owner-level team; a visibility change only when
   * visibilityChangeAllowed). The organization after, its visibility before and the member's teams
   * there; undefined when
   * nothing was written (missing, refused, or no such form, as with events on): the caller's full
   * path then answers.
   */
  updateOrganizationGuarded(
    name: string,
    changes: AccountChanges,
    guard: OrganizationEditGuard,
  ): Promise<GuardedOrganizationEdit | undefined>;
  /** Renames the organization only while it is still named `expectedName` (any case); undefined when it is not. */
  renameOrganization(
    id: number,
    expectedName: string,
    newName: string,
  ): Promise<WriteOutcome<AccountRecord | undefined>>;
  /** Deletes the organization unless it owns repositories (checked under a lock on the organization). */
  deleteOrganizationWithoutRepositories(
    id: number,
  ): Promise<{ kind: 'deleted' } | { kind: 'owns-repositories' }>;
  /** The organizations the filter selects, by name. */
  listOrganizations(filter: OrganizationFilter, offset: number, limit: number): Promise<Page<AccountRecord>>;
  /** The teams of the organization the user is in. */
  teamsOfMember(orgId: number, userId: number): Promise<TeamRecord[]>;
  createTeam(team: TeamInsert): Promise<WriteOutcome<TeamRecord>>;
  findTeamByName(orgId: number, name: string): Promise<TeamRecord | undefined>;
  findTeam(id: number): Promise<TeamRecord | undefined>;
  listTeams(orgId: number, offset: number, limit: number): Promise<Page<TeamRecord>>;
  addTeamMember(teamId: number, accountId: number): Promise<void>;
  /** Removes the member; with keepOneMember, refuses to remove the team's last member. */
  removeTeamMember(
    teamId: number,
    accountId: number,
    keepOneMember: boolean,
  ): Promise<{ kind: 'removed' } | { kind: 'last-member' }>;
}
