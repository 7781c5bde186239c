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

export function toTeam(row: TeamRow): TeamRecord {
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
  row: RepositoryRow,
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

/** What every issue query includes: its poster and its attachments, oldest first. */
export const issueInclude = {
  poster: true,
  attachments: { orderBy: { id: 'asc' } },
} satisfies Prisma.IssueInclude;

export function toAttachment(row: Attachment): AttachmentRecord {
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
  return {
    id: Number(row.id),
    repoId: Number(row.repoId),
    index: Number(row.index),
    poster: toAccount(row.poster),
    title: row.title,
    body: row.body,
    isClosed: row.isClosed,
    isPull: row.isPull,
    headBranch: row.headBranch,
    baseBranch: row.baseBranch,
    closedAt: row.closedAt ?? undefined,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    attachments: row.attachments.map(toAttachment),
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
