import type {
  AccessLevel,
  AccountRecord,
  AccountType,
  ActionRecord,
  ActionType,
  AttachmentRecord,
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
/** A write that may collide with an existing name (the store's unique constraints decide). */
export type WriteOutcome<T> = { kind: 'written'; value: T } | { kind: 'name-taken' };

/** A feed entry to record along a write, for the repository being written. */
export interface NewAction {
  actUserId: number;
  opType: ActionType;
  isPrivate: boolean;
  content: string;
}

export type TeamInsert = Omit<TeamRecord, 'id'>;

export interface RepositoryInsert {
  ownerId: number;
  name: string;
  description: string;
  website: string;
  isPrivate: boolean;
}
export interface RepositoryUpdate {
  name?: string;
  description?: string;
  website?: string;
  isPrivate?: boolean;
  isArchived?: boolean;
  archivedAt?: Date | null;
}
export interface IssueInsert {
  repoId: number;
  posterId: number;
  title: string;
  body: string;
  isPull: boolean;
  headBranch: string;
  baseBranch: string;
}
export interface IssueUpdate {
  title?: string;
  body?: string;
  isClosed?: boolean;
  closedAt?: Date | null;
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
  createUser(account: NewAccount): Promise<WriteOutcome<AccountRecord>>;
  recordLogin(accountId: number): Promise<void>;
  updateAccount(id: number, changes: AccountChanges): Promise<AccountRecord>;
  setPasswordHash(id: number, passwordHash: string): Promise<void>;
  /** Renames the account only while it is still named `expectedName` (any case); null when it is not. */
  renameAccount(
    id: number,
    expectedName: string,
    newName: string,
  ): Promise<WriteOutcome<AccountRecord | null>>;
}

/** A user's access tokens, stored hashed. */
export interface TokenStore {
  createToken(token: {
    accountId: number;
    name: string;
    tokenHash: string;
    tokenLastEight: string;
    scopes: string[];
  }): Promise<WriteOutcome<TokenRecord>>;
  findTokenNamed(accountId: number, name: string): Promise<TokenRecord | null>;
  findTokenById(accountId: number, id: number): Promise<TokenRecord | null>;
  /** A page of the account's tokens, newest first. */
  listTokens(accountId: number, offset: number, limit: number): Promise<Page<TokenRecord>>;
  findTokenByHash(tokenHash: string): Promise<{
    token: TokenRecord;
    account: AccountRecord;
  } | null>;
  /** Stores now as the token's last use, unless the stored one is later than `usedBefore`. */
  touchToken(id: number, usedBefore: Date): Promise<void>;
  deleteToken(id: number): Promise<void>;
}

/** Organizations, their teams and team membership. */
export interface OrganizationStore {
  /** Creates the organization with the team the domain describes holding its creator. */
  createOrganization(
    account: NewAccount,
    owners: { team: Omit<TeamInsert, 'orgId'>; memberId: number },
  ): Promise<WriteOutcome<AccountRecord>>;
  /** Deletes the organization unless it owns repositories (checked under a lock on the organization). */
  deleteOrganizationWithoutRepositories(
    id: number,
  ): Promise<{ kind: 'deleted' } | { kind: 'owns-repositories' }>;
  /** The organizations the filter selects, by name. */
  listOrganizations(filter: OrganizationFilter, offset: number, limit: number): Promise<Page<AccountRecord>>;
  /** The teams of the organization the user is in. */
  teamsOfMember(orgId: number, userId: number): Promise<TeamRecord[]>;
  createTeam(team: TeamInsert): Promise<WriteOutcome<TeamRecord>>;
  findTeamByName(orgId: number, name: string): Promise<TeamRecord | null>;
  findTeam(id: number): Promise<TeamRecord | null>;
  listTeams(orgId: number, offset: number, limit: number): Promise<Page<TeamRecord>>;
  addTeamMember(teamId: number, accountId: number): Promise<void>;
  /** Removes the member; with keepOneMember, refuses to remove the team's last member. */
  removeTeamMember(
    teamId: number,
    accountId: number,
    keepOneMember: boolean,
  ): Promise<{ kind: 'removed' } | { kind: 'last-member' }>;
}

/** Repositories and their collaborators. */
export interface RepositoryStore {
  /** Creates the repository with the collaboration and feed entry the domain decided on. */
  createRepository(
    repository: RepositoryInsert,
    effects: { collaborator?: { accountId: number; permission: 'admin' }; action: NewAction },
  ): Promise<WriteOutcome<RepositoryRecord>>;
  findRepository(ownerName: string, name: string): Promise<RepositoryRecord | null>;
  findRepositoryById(id: number): Promise<RepositoryRecord | null>;
  repositoryNameTaken(ownerId: number, name: string): Promise<boolean>;
  /** Updates the repository; `feedPrivacy` sets the privacy of every feed entry it has. */
  updateRepository(
    id: number,
    changes: RepositoryUpdate,
    effects: { action?: NewAction; feedPrivacy?: boolean },
  ): Promise<WriteOutcome<RepositoryRecord>>;
  deleteRepository(id: number): Promise<void>;
  setCollaborator(repoId: number, accountId: number, permission: 'read' | 'write' | 'admin'): Promise<void>;
  collaboratorLevel(repoId: number, accountId: number): Promise<AccessLevel>;
}

/** Issues and pull requests (an issue flagged as a pull request). */
export interface IssueStore {
  /** Creates the issue under the repository's next index, with the feed entry describing it. */
  createIssue(issue: IssueInsert, action: (index: number) => NewAction): Promise<IssueRecord>;
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
  updateIssue(issue: IssueRecord, changes: IssueUpdate, action: NewAction | undefined): Promise<IssueRecord>;
}

export interface AttachmentInsert {
  uuid: string;
  repoId: number;
  issueId: number;
  uploaderId: number;
  name: string;
  contentType: string;
  size: number;
}

/** Issue attachments: rows only; their bytes are the attachment storage's. */
export interface AttachmentStore {
  /**
   * Inserts the row and moves the issue's updated_at in one transaction that runs
   * `commitObject` last: when it fails, the transaction rolls back and no row is left.
   */
  createAttachment(
    attachment: AttachmentInsert,
    commitObject: () => Promise<void>,
  ): Promise<AttachmentRecord>;
  findAttachment(id: number): Promise<AttachmentRecord | null>;
  findAttachmentByUuid(uuid: string): Promise<AttachmentRecord | null>;
  renameAttachment(id: number, name: string): Promise<AttachmentRecord>;
  /** Removes the row; false when it was already gone. */
  deleteAttachment(id: number): Promise<boolean>;
  incrementDownloadCount(id: number): Promise<void>;
  /** Of these uuids, the ones that have a row (the sweep). */
  attachmentUuidsAmong(uuids: string[]): Promise<string[]>;
  /** Every row's uuid, in batches (the sweep). */
  allAttachmentUuids(): AsyncIterable<string>;
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
  AttachmentStore &
  ActionStore;
