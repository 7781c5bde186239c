import type {
  AccessLevel,
  AccountRecord,
  AccountType,
  ActionRecord,
  IssueRecord,
  Page,
  RepositoryRecord,
  TeamRecord,
  TokenRecord,
  UserCredentials,
  Visibility,
} from './records';

// The persistence the use cases need, stated here so the domain owns its contract, one part
// per aggregate; src/db/store.ts assembles the Prisma implementations of the parts.

export interface NewAccount {
  name: string;
  type: AccountType;
  email?: string;
  fullName?: string;
  description?: string;
  website?: string;
  location?: string;
  visibility?: Visibility;
  passwordHash?: string;
  isAdmin?: boolean;
  allowCreateOrganization?: boolean;
  repoAdminChangeTeamAccess?: boolean;
}
export type AccountChanges = Partial<
  Pick<
    AccountRecord,
    | 'fullName'
    | 'email'
    | 'description'
    | 'website'
    | 'location'
    | 'visibility'
    | 'repoAdminChangeTeamAccess'
    | 'isAdmin'
    | 'allowCreateOrganization'
    | 'isActive'
  >
>;
/**
 * The accounts a caller may see, as a condition a query applies: accounts of `visibilities`, plus
 * accounts of `memberVisibilities` that are the user `memberId` or an organization they belong to.
 * src/domain/access.ts states who gets which scope.
 */
export interface AccountVisibilityScope {
  visibilities: Visibility[];
  memberId?: number;
  memberVisibilities: Visibility[];
}
export interface OrganizationFilter {
  visibleTo: AccountVisibilityScope;
  /** Only the organizations this user belongs to. */
  withMember?: number;
}
/** A feed entry with the viewer's collaborator level on its repository ('none' for anonymous viewers). */
export interface FeedEntry {
  action: ActionRecord;
  viewerCollaboration: AccessLevel;
}

/** Users and organizations alike: both are accounts sharing one namespace. */
export interface AccountStore {
  findAccountByName(name: string): Promise<AccountRecord | null>;
  findAccountById(id: number): Promise<AccountRecord | null>;
  findUserCredentials(name: string): Promise<UserCredentials | null>;
  anyAdminExists(): Promise<boolean>;
  createUser(account: NewAccount): Promise<AccountRecord>;
  recordLogin(accountId: number): Promise<void>;
  updateAccount(id: number, changes: AccountChanges): Promise<AccountRecord>;
  setPasswordHash(id: number, passwordHash: string): Promise<void>;
  renameAccount(id: number, newName: string): Promise<AccountRecord>;
}

/** A user's access tokens, stored hashed. */
export interface TokenStore {
  createToken(token: {
    accountId: number;
    name: string;
    tokenHash: string;
    tokenLastEight: string;
    scopes: string[];
  }): Promise<TokenRecord>;
  findTokenNamed(accountId: number, name: string): Promise<TokenRecord | null>;
  findTokenById(accountId: number, id: number): Promise<TokenRecord | null>;
  findTokenByHash(tokenHash: string): Promise<{
    token: TokenRecord;
    account: AccountRecord;
  } | null>;
  touchToken(id: number): Promise<void>;
  deleteToken(id: number): Promise<void>;
}

/** Organizations, their teams and team membership. */
export interface OrganizationStore {
  /** Creates an organization with its Owners team holding the creator. */
  createOrganization(account: NewAccount, creatorId: number): Promise<AccountRecord>;
  /** Deletes the organization unless it owns repositories; false when it still does. */
  deleteOrganizationWithoutRepositories(id: number): Promise<boolean>;
  /** The organizations the filter selects, by name. */
  listOrganizations(filter: OrganizationFilter, offset: number, limit: number): Promise<Page<AccountRecord>>;
  /** The teams of the organization the user is in. */
  teamsOfMember(orgId: number, userId: number): Promise<TeamRecord[]>;
  createTeam(team: Omit<TeamRecord, 'id'>): Promise<TeamRecord>;
  findTeamByName(orgId: number, name: string): Promise<TeamRecord | null>;
  findTeam(id: number): Promise<TeamRecord | null>;
  listTeams(orgId: number, offset: number, limit: number): Promise<Page<TeamRecord>>;
  addTeamMember(teamId: number, accountId: number): Promise<void>;
  /** Removes the member; refuses (false) to empty an owner team. */
  removeTeamMember(teamId: number, accountId: number, keepOneMember: boolean): Promise<boolean>;
}

/** Repositories and their collaborators. */
export interface RepositoryStore {
  createRepository(
    repository: {
      ownerId: number;
      name: string;
      description: string;
      website: string;
      isPrivate: boolean;
    },
    creatorId: number,
    creatorCollaboration: 'admin' | undefined,
  ): Promise<RepositoryRecord>;
  findRepository(ownerName: string, name: string): Promise<RepositoryRecord | null>;
  repositoryNameTaken(ownerId: number, name: string): Promise<boolean>;
  updateRepository(
    id: number,
    changes: {
      name?: string;
      description?: string;
      website?: string;
      isPrivate?: boolean;
      isArchived?: boolean;
    },
    rename:
      | {
          actorId: number;
          oldName: string;
        }
      | undefined,
  ): Promise<RepositoryRecord>;
  deleteRepository(id: number): Promise<void>;
  setCollaborator(repoId: number, accountId: number, permission: 'read' | 'write' | 'admin'): Promise<void>;
  collaboratorLevel(repoId: number, accountId: number): Promise<AccessLevel>;
}

/** Issues and pull requests (an issue flagged as a pull request). */
export interface IssueStore {
  createIssue(issue: {
    repoId: number;
    posterId: number;
    title: string;
    body: string;
    isPull: boolean;
    headBranch: string;
    baseBranch: string;
    isPrivate: boolean;
  }): Promise<IssueRecord>;
  findIssue(repoId: number, index: number): Promise<IssueRecord | null>;
  listIssues(
    repoId: number,
    filter: {
      state: 'open' | 'closed' | 'all';
      kind: 'issues' | 'pulls' | 'all';
    },
    offset: number,
    limit: number,
  ): Promise<Page<IssueRecord>>;
  updateIssue(
    issue: IssueRecord,
    changes: {
      title?: string;
      body?: string;
      isClosed?: boolean;
    },
    state:
      | {
          actorId: number;
          isPrivate: boolean;
        }
      | undefined,
  ): Promise<IssueRecord>;
}

/** The activity feed. */
export interface ActionStore {
  /** Feed of the organization's repositories, newest first, with what the viewer needs to judge access. */
  listOrganizationFeed(
    orgId: number,
    filter: {
      includePrivate: boolean;
      from?: Date;
      to?: Date;
    },
    viewerId: number | undefined,
    offset: number,
    limit: number,
  ): Promise<Page<FeedEntry>>;
}

export type Store = AccountStore &
  TokenStore &
  OrganizationStore &
  RepositoryStore &
  IssueStore &
  ActionStore;
