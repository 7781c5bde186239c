import type { AccountChanges, AccountVisibilityScope, NewAccount } from './account-store';
import type { AccountRecord, Page, TeamRecord } from './records';
import type { WriteOutcome } from './write-outcome';

export interface OrganizationFilter {
  visibleTo: AccountVisibilityScope;
  /** Only the organizations this user belongs to. */
  withMember?: number;
}

/** What PATCH /orgs/{org} may change of an organization: the fields given, the rest as they are. */
export type OrganizationChanges = Pick<
  AccountChanges,
  'fullName' | 'email' | 'description' | 'website' | 'location' | 'visibility' | 'repoAdminChangeTeamAccess'
>;

export type TeamInsert = Omit<TeamRecord, 'id'>;

/** Organizations, their teams and team membership. */
export interface OrganizationStore {
  /** Creates the organization with the team the domain describes holding its creator. */
  createOrganization(
    account: NewAccount,
    owners: { team: Omit<TeamInsert, 'orgId'>; memberId: number },
  ): Promise<WriteOutcome<AccountRecord>>;
  /** PATCH /orgs/{org}: applies the changes (its change event with them); undefined when the organization is gone. */
  updateOrganization(id: number, changes: OrganizationChanges): Promise<AccountRecord | undefined>;
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
