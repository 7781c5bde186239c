import type { AccountChanges, AccountVisibilityScope, NewAccount } from './account-store';
import type { AccountRecord, Page, TeamRecord, Visibility } from './records';
import type { TokenFacts, TokenLookup } from './token-caller';
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
  /**
   * POST /orgs with the request's token looked up in the same statement (token-caller.ts): the
   * organization is created only when the token's scopes allow writing organizations and its user
   * may create one (a site administrator; else allowed to, not through a public-only token, and
   * regular creation not disabled). What the statement found of the token, and the organization
   * when it was made; undefined when it could not be tried (events on: the usual path records the
   * event) or held a value the database cannot store, and the usual path answers.
   */
  createOrganizationWithToken(
    token: TokenLookup,
    account: NewAccount,
    team: Omit<TeamInsert, 'orgId'>,
    regularCreationDisabled: boolean,
  ): Promise<
    WriteOutcome<{ token: TokenFacts | undefined; organization: AccountRecord | undefined }> | undefined
  >;
  /**
   * The organization of that name (any case) with the request's token looked up in the same
   * statement: what it found of each, and whether the token's user is in one of the organization's
   * teams (asked of a private organization only; false for the others). Undefined when a name
   * holds what the database cannot compare (a NUL character): the usual path answers.
   */
  findOrganizationWithToken(
    token: TokenLookup,
    name: string,
  ): Promise<
    | {
        token: TokenFacts | undefined;
        organization: AccountRecord | undefined;
        callerIsMember: boolean;
      }
    | undefined
  >;
  /**
   * The user and the organization of those names (any case) with the request's token looked up in
   * the same statement: what it found of each, whether the token's user is in one of the
   * organization's teams, and the named user's teams there; undefined as findOrganizationWithToken.
   */
  findPermissionsWithToken(
    token: TokenLookup,
    username: string,
    orgName: string,
  ): Promise<
    | {
        token: TokenFacts | undefined;
        user: AccountRecord | undefined;
        organization: AccountRecord | undefined;
        callerIsMember: boolean;
        userTeams: TeamRecord[];
      }
    | undefined
  >;
  /** PATCH /orgs/{org}: applies the changes (its change event with them). */
  updateOrganization(id: number, changes: AccountChanges): Promise<AccountRecord>;
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
  /**
   * The guarded edit (updateOrganizationGuarded) with the request's token looked up in the same
   * statement (token-caller.ts): its guard is the token's user when its scopes allow writing
   * organizations (a public-only token owns nothing; a visibility change for a site administrator,
   * or for anyone when the danger zone is not restricted). What the statement found of the token,
   * and the edit when it was written; undefined when it could not be tried (events on, no change)
   * or held a value the database cannot store, and the usual path answers.
   */
  updateOrganizationWithToken(
    token: TokenLookup,
    name: string,
    changes: AccountChanges,
    dangerZoneRestricted: boolean,
  ): Promise<{ token: TokenFacts | undefined; edit: GuardedOrganizationEdit | undefined } | undefined>;
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
