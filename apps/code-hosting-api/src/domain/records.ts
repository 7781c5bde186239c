// Plain data the domain works on; src/db maps storage rows to these shapes.

export type Visibility = 'public' | 'limited' | 'private';
export const visibilities = ['public', 'limited', 'private'] as const;

export type AccountType = 'user' | 'organization';

export interface AccountRecord {
  id: number;
  name: string;
  lowerName: string;
  fullName: string;
  email: string;
  type: AccountType;
  visibility: Visibility;
  description: string;
  website: string;
  location: string;
  isAdmin: boolean;
  isActive: boolean;
  allowCreateOrganization: boolean;
  repoAdminChangeTeamAccess: boolean;
  lastLoginAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** A user's password hash is kept apart so it never reaches a response by accident. */
export interface UserCredentials {
  account: AccountRecord;
  passwordHash?: string;
}

export interface TokenRecord {
  id: number;
  accountId: number;
  name: string;
  tokenLastEight: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt?: Date;
}

/** Access levels, ordered as Gitea's perm.AccessMode. */
export const accessLevels = ['none', 'read', 'write', 'admin', 'owner'] as const;
export type AccessLevel = (typeof accessLevels)[number];

export function levelRank(level: AccessLevel): number {
  return accessLevels.indexOf(level);
}

export function highestLevel(levels: AccessLevel[]): AccessLevel {
  return levels.reduce<AccessLevel>(
    (best, level) => (levelRank(level) > levelRank(best) ? level : best),
    'none',
  );
}

export interface TeamRecord {
  id: number;
  orgId: number;
  name: string;
  description: string;
  permission: Exclude<AccessLevel, 'none'>;
  canCreateOrgRepo: boolean;
  includesAllRepositories: boolean;
}

export interface RepositoryRecord {
  id: number;
  owner: AccountRecord;
  name: string;
  lowerName: string;
  description: string;
  website: string;
  isPrivate: boolean;
  isArchived: boolean;
  archivedAt?: Date;
  openIssueCount: number;
  openPullCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** What of a repository its access rule reads (src/domain/access.ts). */
export type RepositoryAccessFacts = Pick<RepositoryRecord, 'isPrivate' | 'owner'>;

export interface IssueRecord {
  id: number;
  repoId: number;
  index: number;
  poster: AccountRecord;
  title: string;
  body: string;
  isClosed: boolean;
  isPull: boolean;
  headBranch: string;
  baseBranch: string;
  closedAt?: Date;
  createdAt: Date;
  updatedAt: Date;
  /** Its attachments, oldest first (Gitea's `assets`). */
  attachments: AttachmentRecord[];
}

/** A file attached to an issue; `uuid` is its storage key and the last segment of its download URL. */
export interface AttachmentRecord {
  id: number;
  uuid: string;
  repoId: number;
  /** Undefined: the attachment belongs to no issue (not an issue attachment). */
  issueId?: number;
  uploaderId?: number;
  name: string;
  /** Sniffed from the first bytes at upload. */
  contentType: string;
  size: number;
  downloadCount: number;
  createdAt: Date;
}

/** Where an attachment is, as its API paths name it: …/repos/{owner}/{repo}/issues/{index}/assets/{id}. */
export interface AttachmentPlace {
  repository: { id: number; owner: string; name: string };
  /** Undefined: the attachment belongs to no issue. */
  issueIndex?: number;
}

export const actionTypes = [
  'create_repo',
  'rename_repo',
  'create_issue',
  'create_pull_request',
  'close_issue',
  'reopen_issue',
  'close_pull_request',
  'reopen_pull_request',
] as const;
export type ActionType = (typeof actionTypes)[number];

export interface ActionRecord {
  id: number;
  actUser: AccountRecord;
  opType: ActionType;
  repository: RepositoryRecord;
  isPrivate: boolean;
  content: string;
  refName: string;
  createdAt: Date;
}

export interface Page<T> {
  items: T[];
  total: number;
}
