import type {
  Account,
  Attachment,
  Issue,
  Prisma,
  PrismaClient,
  Repository,
  Team,
} from '../generated/prisma/client';
import type {
  AccountRecord,
  AccountType,
  AttachmentRecord,
  IssueRecord,
  RepositoryRecord,
  TeamRecord,
  TokenRecord,
  Visibility,
} from '../domain/records';

// Storage rows to the domain's plain records.

export type Client = PrismaClient | Prisma.TransactionClient;

/** A BIGINT column: a BigInt through Prisma, a string straight from pg (Database.query). */
export type Int8 = bigint | string;

/** An account row without its password hash, from Prisma or straight from pg. */
export type AccountRow = Omit<Account, 'passwordHash' | 'id'> & { id: Int8 };

/** A team row, from Prisma or straight from pg. */
export type TeamRow = Omit<Team, 'id' | 'orgId'> & { id: Int8; orgId: Int8 };

/** An account row; the mapping never reads the password hash (a token's row comes without it). */
export function toAccount(row: AccountRow): AccountRecord {
  return {
    id: Number(row.id),
    name: row.name,
    lowerName: row.lowerName,
    fullName: row.fullName,
    email: row.email,
    type: row.type as AccountType,
    visibility: row.visibility as Visibility,
    description: row.description,
    website: row.website,
    location: row.location,
    isAdmin: row.isAdmin,
    isActive: row.isActive,
    allowCreateOrganization: row.allowCreateOrganization,
    repoAdminChangeTeamAccess: row.repoAdminChangeTeamAccess,
    lastLoginAt: row.lastLoginAt ?? undefined,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toTeam(row: Omit<TeamRow, 'lowerName' | 'createdAt'>): TeamRecord {
  return {
    id: Number(row.id),
    orgId: Number(row.orgId),
    name: row.name,
    description: row.description,
    permission: row.permission as TeamRecord['permission'],
    canCreateOrgRepo: row.canCreateOrgRepo,
    includesAllRepositories: row.includesAllRepositories,
  };
}

export type RepositoryRow = Repository & { owner: Account };

export function toRepository(
  row: Omit<Repository, 'id' | 'ownerId' | 'lastIssueIndex' | 'owner'> & { id: Int8; owner: AccountRow },
  counts: { issues: number; pulls: number },
): RepositoryRecord {
  return {
    id: Number(row.id),
    owner: toAccount(row.owner),
    name: row.name,
    lowerName: row.lowerName,
    description: row.description,
    website: row.website,
    isPrivate: row.isPrivate,
    isArchived: row.isArchived,
    archivedAt: row.archivedAt ?? undefined,
    openIssueCount: counts.issues,
    openPullCount: counts.pulls,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** An attachment as a statement's JSON aggregate gives it (ISSUE_COLUMNS): its time a string. */
export type AttachmentJson = Omit<
  Attachment,
  'createdAt' | 'id' | 'repoId' | 'issueId' | 'uploaderId' | 'size' | 'downloadCount'
> & {
  id: number;
  repoId: number;
  issueId: number | null;
  uploaderId: number | null;
  size: number;
  downloadCount: number;
  createdAt: string;
};

/** An attachment of a JSON aggregate as the record. */
function toAttachmentOfJson(row: AttachmentJson): AttachmentRecord {
  return {
    id: row.id,
    uuid: row.uuid,
    repoId: row.repoId,
    issueId: row.issueId ?? undefined,
    uploaderId: row.uploaderId ?? undefined,
    name: row.name,
    contentType: row.contentType,
    size: row.size,
    downloadCount: row.downloadCount,
    createdAt: new Date(row.createdAt),
  };
}

/** What every issue query includes: its poster and its attachments, oldest first. */
export const issueInclude = {
  poster: true,
  attachments: { orderBy: { id: 'asc' } },
} satisfies Prisma.IssueInclude;

/** An attachment row, from Prisma or straight from pg (its BIGINT columns strings then). */
export type AttachmentRow = Omit<
  Attachment,
  'id' | 'repoId' | 'issueId' | 'uploaderId' | 'size' | 'downloadCount'
> & {
  id: Int8;
  repoId: Int8;
  issueId: Int8 | null;
  uploaderId: Int8 | null;
  size: Int8;
  downloadCount: Int8;
};

export function toAttachment(row: AttachmentRow): AttachmentRecord {
  return {
    id: Number(row.id),
    uuid: row.uuid,
    repoId: Number(row.repoId),
    issueId: row.issueId === null ? undefined : Number(row.issueId),
    uploaderId: row.uploaderId === null ? undefined : Number(row.uploaderId),
    name: row.name,
    contentType: row.contentType,
    size: Number(row.size),
    downloadCount: Number(row.downloadCount),
    createdAt: row.createdAt,
  };
}

export function toIssue(row: Issue & { poster: Account; attachments: Attachment[] }): IssueRecord {
  return { ...issueOf(row, toAccount(row.poster)), attachments: row.attachments.map(toAttachment) };
}

/** An issue row of a statement straight on pg (ISSUE_BY_INDEX): its poster's columns beside it. */
export type IssueRow = Omit<Issue, 'id' | 'repoId' | 'index' | 'posterId'> & {
  id: Int8;
  repoId: Int8;
  index: Int8;
  /** row_to_json's: its times are strings. */
  poster: Omit<AccountRow, 'createdAt' | 'updatedAt' | 'lastLoginAt'> & {
    createdAt: string;
    updatedAt: string;
    lastLoginAt: string | null;
  };
  attachments: AttachmentJson[];
};

export function toIssueOfRow(row: IssueRow): IssueRecord {
  const { poster } = row;
  const account = toAccount({
    ...poster,
    createdAt: new Date(poster.createdAt),
    updatedAt: new Date(poster.updatedAt),
    lastLoginAt: poster.lastLoginAt === null ? null : new Date(poster.lastLoginAt),
  });
  return { ...issueOf(row, account), attachments: row.attachments.map(toAttachmentOfJson) };
}

function issueOf(
  row: Omit<Issue, 'id' | 'repoId' | 'index' | 'posterId'> & { id: Int8; repoId: Int8; index: Int8 },
  poster: AccountRecord,
): Omit<IssueRecord, 'attachments'> {
  return {
    id: Number(row.id),
    repoId: Number(row.repoId),
    index: Number(row.index),
    poster,
    title: row.title,
    body: row.body,
    isClosed: row.isClosed,
    isPull: row.isPull,
    headBranch: row.headBranch,
    baseBranch: row.baseBranch,
    closedAt: row.closedAt ?? undefined,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Open issue and pull request counts of each repository. */
async function openCounts(client: Client, repoIds: bigint[]) {
  const groups = repoIds.length
    ? await client.issue.groupBy({
        by: ['repoId', 'isPull'],
        where: { repoId: { in: repoIds }, isClosed: false },
        _count: { _all: true },
      })
    : [];
  const counts = new Map<bigint, { issues: number; pulls: number }>();
  for (const id of repoIds) counts.set(id, { issues: 0, pulls: 0 });
  for (const group of groups) {
    const entry = counts.get(group.repoId)!;
    if (group.isPull) entry.pulls = group._count._all;
    else entry.issues = group._count._all;
  }
  return counts;
}

export async function toRepositories(client: Client, rows: RepositoryRow[]): Promise<RepositoryRecord[]> {
  const counts = await openCounts(
    client,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toRepository(row, counts.get(row.id)!));
}

export function toToken(row: {
  id: Int8;
  accountId: Int8;
  name: string;
  tokenLastEight: string;
  scopes: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}): TokenRecord {
  return {
    id: Number(row.id),
    accountId: Number(row.accountId),
    name: row.name,
    tokenLastEight: row.tokenLastEight,
    scopes: row.scopes.split(',').filter(Boolean),
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt ?? undefined,
  };
}
