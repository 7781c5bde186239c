import type { AccountChanges, NewAccount, OrganizationFilter, Store } from '../domain/store';
import type {
  Account,
  Action,
  Issue,
  Prisma,
  PrismaClient,
  Repository,
  Team,
} from '../generated/prisma/client';
import type {
  AccessLevel,
  AccountRecord,
  AccountType,
  ActionRecord,
  ActionType,
  IssueRecord,
  Page,
  RepositoryRecord,
  TeamRecord,
  TokenRecord,
  UserCredentials,
  Visibility,
} from '../domain/records';

// Data access: Prisma queries in, plain records out. No rule of the seed lives here.

type Client = PrismaClient | Prisma.TransactionClient;

export function toAccount(row: Account): AccountRecord {
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
    lastLoginAt: row.lastLoginAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function toTeam(row: Team): TeamRecord {
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

type RepositoryRow = Repository & { owner: Account };

function toRepository(row: RepositoryRow, counts: { issues: number; pulls: number }): RepositoryRecord {
  return {
    id: Number(row.id),
    owner: toAccount(row.owner),
    name: row.name,
    lowerName: row.lowerName,
    description: row.description,
    website: row.website,
    isPrivate: row.isPrivate,
    isArchived: row.isArchived,
    archivedAt: row.archivedAt,
    openIssueCount: counts.issues,
    openPullCount: counts.pulls,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function toIssue(row: Issue & { poster: Account }): IssueRecord {
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
    closedAt: row.closedAt,
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

async function toRepositories(client: Client, rows: RepositoryRow[]): Promise<RepositoryRecord[]> {
  const counts = await openCounts(
    client,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toRepository(row, counts.get(row.id)!));
}

function organizationCondition(filter: OrganizationFilter): Prisma.AccountWhereInput {
  const visible: Prisma.AccountWhereInput[] = [{ visibility: { in: filter.visibilities } }];
  if (filter.memberId !== undefined && filter.memberVisibilities?.length) {
    visible.push({
      visibility: { in: filter.memberVisibilities },
      teams: { some: { members: { some: { accountId: BigInt(filter.memberId) } } } },
    });
  }
  return { type: 'organization', OR: visible };
}

export function createStore(prisma: PrismaClient): Store {
  const store = {
    async findAccountByName(name: string): Promise<AccountRecord | null> {
      const row = await prisma.account.findUnique({ where: { lowerName: name.toLowerCase() } });
      return row && toAccount(row);
    },

    async findAccountById(id: number): Promise<AccountRecord | null> {
      const row = await prisma.account.findUnique({ where: { id: BigInt(id) } });
      return row && toAccount(row);
    },

    async findUserCredentials(name: string): Promise<UserCredentials | null> {
      const row = await prisma.account.findUnique({ where: { lowerName: name.toLowerCase() } });
      if (!row || row.type !== 'user') return null;
      return { account: toAccount(row), passwordHash: row.passwordHash };
    },

    async anyAdminExists(): Promise<boolean> {
      return (await prisma.account.count({ where: { isAdmin: true, type: 'user' } })) > 0;
    },

    async createUser(account: NewAccount): Promise<AccountRecord> {
      const row = await prisma.account.create({
        data: { ...account, lowerName: account.name.toLowerCase() },
      });
      return toAccount(row);
    },

    async recordLogin(accountId: number): Promise<void> {
      await prisma.account.update({ where: { id: BigInt(accountId) }, data: { lastLoginAt: new Date() } });
    },

    /** Creates an organization with its Owners team holding the creator. */
    async createOrganization(account: NewAccount, creatorId: number): Promise<AccountRecord> {
      return prisma.$transaction(async (tx) => {
        const row = await tx.account.create({ data: { ...account, lowerName: account.name.toLowerCase() } });
        await tx.team.create({
          data: {
            orgId: row.id,
            name: 'Owners',
            lowerName: 'owners',
            permission: 'owner',
            canCreateOrgRepo: true,
            includesAllRepositories: true,
            members: { create: { accountId: BigInt(creatorId) } },
          },
        });
        return toAccount(row);
      });
    },

    async updateAccount(id: number, changes: AccountChanges): Promise<AccountRecord> {
      const row = await prisma.account.update({ where: { id: BigInt(id) }, data: changes });
      return toAccount(row);
    },

    async setPasswordHash(id: number, passwordHash: string): Promise<void> {
      await prisma.account.update({ where: { id: BigInt(id) }, data: { passwordHash } });
    },

    async renameAccount(id: number, newName: string): Promise<AccountRecord> {
      const row = await prisma.account.update({
        where: { id: BigInt(id) },
        data: { name: newName, lowerName: newName.toLowerCase() },
      });
      return toAccount(row);
    },

    /** Deletes the organization unless it owns repositories; false when it still does. */
    async deleteOrganizationWithoutRepositories(id: number): Promise<boolean> {
      return prisma.$transaction(async (tx) => {
        // Lock the organization row so a concurrent repository creation cannot slip in.
        await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${BigInt(id)} FOR UPDATE`;
        if ((await tx.repository.count({ where: { ownerId: BigInt(id) } })) > 0) return false;
        await tx.account.delete({ where: { id: BigInt(id) } });
        return true;
      });
    },

    async listOrganizations(
      filter: OrganizationFilter,
      offset: number,
      limit: number,
    ): Promise<Page<AccountRecord>> {
      const where = organizationCondition(filter);
      const [rows, total] = await Promise.all([
        prisma.account.findMany({ where, orderBy: [{ lowerName: 'asc' }], skip: offset, take: limit }),
        prisma.account.count({ where }),
      ]);
      return { items: rows.map(toAccount), total };
    },

    /** Organizations the user belongs to, narrowed to the given visibilities. */
    async listOrganizationsOfMember(
      memberId: number,
      visibilities: Visibility[],
      offset: number,
      limit: number,
    ): Promise<Page<AccountRecord>> {
      const where: Prisma.AccountWhereInput = {
        type: 'organization',
        visibility: { in: visibilities },
        teams: { some: { members: { some: { accountId: BigInt(memberId) } } } },
      };
      const [rows, total] = await Promise.all([
        prisma.account.findMany({ where, orderBy: [{ lowerName: 'asc' }], skip: offset, take: limit }),
        prisma.account.count({ where }),
      ]);
      return { items: rows.map(toAccount), total };
    },

    /** The teams of the organization the user is in. */
    async teamsOfMember(orgId: number, userId: number): Promise<TeamRecord[]> {
      const rows = await prisma.team.findMany({
        where: { orgId: BigInt(orgId), members: { some: { accountId: BigInt(userId) } } },
      });
      return rows.map(toTeam);
    },

    async createTeam(team: Omit<TeamRecord, 'id'>): Promise<TeamRecord> {
      const row = await prisma.team.create({
        data: {
          orgId: BigInt(team.orgId),
          name: team.name,
          lowerName: team.name.toLowerCase(),
          description: team.description,
          permission: team.permission,
          canCreateOrgRepo: team.canCreateOrgRepo,
          includesAllRepositories: team.includesAllRepositories,
        },
      });
      return toTeam(row);
    },

    async findTeamByName(orgId: number, name: string): Promise<TeamRecord | null> {
      const row = await prisma.team.findUnique({
        where: { orgId_lowerName: { orgId: BigInt(orgId), lowerName: name.toLowerCase() } },
      });
      return row && toTeam(row);
    },

    async findTeam(id: number): Promise<TeamRecord | null> {
      const row = await prisma.team.findUnique({ where: { id: BigInt(id) } });
      return row && toTeam(row);
    },

    async listTeams(orgId: number, offset: number, limit: number): Promise<Page<TeamRecord>> {
      const where = { orgId: BigInt(orgId) };
      const [rows, total] = await Promise.all([
        prisma.team.findMany({ where, orderBy: [{ lowerName: 'asc' }], skip: offset, take: limit }),
        prisma.team.count({ where }),
      ]);
      return { items: rows.map(toTeam), total };
    },

    async addTeamMember(teamId: number, accountId: number): Promise<void> {
      await prisma.teamMember.upsert({
        where: { teamId_accountId: { teamId: BigInt(teamId), accountId: BigInt(accountId) } },
        create: { teamId: BigInt(teamId), accountId: BigInt(accountId) },
        update: {},
      });
    },

    /** Removes the member; refuses (false) to empty an owner team. */
    async removeTeamMember(teamId: number, accountId: number, keepOneMember: boolean): Promise<boolean> {
      return prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT id FROM teams WHERE id = ${BigInt(teamId)} FOR UPDATE`;
        const key = { teamId: BigInt(teamId), accountId: BigInt(accountId) };
        if (!(await tx.teamMember.findUnique({ where: { teamId_accountId: key } }))) return true;
        if (keepOneMember && (await tx.teamMember.count({ where: { teamId: BigInt(teamId) } })) <= 1)
          return false;
        await tx.teamMember.delete({ where: { teamId_accountId: key } });
        return true;
      });
    },

    async createRepository(
      repository: { ownerId: number; name: string; description: string; website: string; isPrivate: boolean },
      creatorId: number,
      creatorCollaboration: 'admin' | undefined,
    ): Promise<RepositoryRecord> {
      return prisma.$transaction(async (tx) => {
        const row = await tx.repository.create({
          data: {
            ownerId: BigInt(repository.ownerId),
            name: repository.name,
            lowerName: repository.name.toLowerCase(),
            description: repository.description,
            website: repository.website,
            isPrivate: repository.isPrivate,
          },
          include: { owner: true },
        });
        if (creatorCollaboration) {
          await tx.collaboration.create({
            data: { repoId: row.id, accountId: BigInt(creatorId), permission: creatorCollaboration },
          });
        }
        await tx.action.create({
          data: {
            actUserId: BigInt(creatorId),
            opType: 'create_repo',
            repoId: row.id,
            isPrivate: row.isPrivate,
          },
        });
        return toRepository(row, { issues: 0, pulls: 0 });
      });
    },

    async findRepository(ownerName: string, name: string): Promise<RepositoryRecord | null> {
      const row = await prisma.repository.findFirst({
        where: { owner: { lowerName: ownerName.toLowerCase() }, lowerName: name.toLowerCase() },
        include: { owner: true },
      });
      return row && (await toRepositories(prisma, [row]))[0]!;
    },

    async repositoryNameTaken(ownerId: number, name: string): Promise<boolean> {
      return (
        (await prisma.repository.count({
          where: { ownerId: BigInt(ownerId), lowerName: name.toLowerCase() },
        })) > 0
      );
    },

    async updateRepository(
      id: number,
      changes: {
        name?: string;
        description?: string;
        website?: string;
        isPrivate?: boolean;
        isArchived?: boolean;
      },
      rename: { actorId: number; oldName: string } | undefined,
    ): Promise<RepositoryRecord> {
      return prisma.$transaction(async (tx) => {
        const data: Prisma.RepositoryUpdateInput = {
          description: changes.description,
          website: changes.website,
          isPrivate: changes.isPrivate,
        };
        if (changes.name !== undefined) {
          data.name = changes.name;
          data.lowerName = changes.name.toLowerCase();
        }
        if (changes.isArchived !== undefined) {
          data.isArchived = changes.isArchived;
          data.archivedAt = changes.isArchived ? new Date() : null;
        }
        const row = await tx.repository.update({ where: { id: BigInt(id) }, data, include: { owner: true } });
        // Entries follow the repository's privacy, so a repository made private hides its history.
        if (changes.isPrivate !== undefined) {
          await tx.action.updateMany({ where: { repoId: row.id }, data: { isPrivate: changes.isPrivate } });
        }
        if (rename) {
          await tx.action.create({
            data: {
              actUserId: BigInt(rename.actorId),
              opType: 'rename_repo',
              repoId: row.id,
              isPrivate: row.isPrivate,
              content: rename.oldName,
            },
          });
        }
        return (await toRepositories(tx, [row]))[0]!;
      });
    },

    async deleteRepository(id: number): Promise<void> {
      await prisma.repository.delete({ where: { id: BigInt(id) } });
    },

    async setCollaborator(
      repoId: number,
      accountId: number,
      permission: 'read' | 'write' | 'admin',
    ): Promise<void> {
      await prisma.collaboration.upsert({
        where: { repoId_accountId: { repoId: BigInt(repoId), accountId: BigInt(accountId) } },
        create: { repoId: BigInt(repoId), accountId: BigInt(accountId), permission },
        update: { permission },
      });
    },

    async collaboratorLevel(repoId: number, accountId: number): Promise<AccessLevel> {
      const row = await prisma.collaboration.findUnique({
        where: { repoId_accountId: { repoId: BigInt(repoId), accountId: BigInt(accountId) } },
      });
      return (row?.permission as AccessLevel | undefined) ?? 'none';
    },

    async createIssue(issue: {
      repoId: number;
      posterId: number;
      title: string;
      body: string;
      isPull: boolean;
      headBranch: string;
      baseBranch: string;
      isPrivate: boolean;
    }): Promise<IssueRecord> {
      return prisma.$transaction(async (tx) => {
        // Row-locking increment: concurrent creations get distinct, gap-free indexes.
        const repository = await tx.repository.update({
          where: { id: BigInt(issue.repoId) },
          data: { lastIssueIndex: { increment: 1 } },
          select: { lastIssueIndex: true },
        });
        const row = await tx.issue.create({
          data: {
            repoId: BigInt(issue.repoId),
            index: repository.lastIssueIndex,
            posterId: BigInt(issue.posterId),
            title: issue.title,
            body: issue.body,
            isPull: issue.isPull,
            headBranch: issue.headBranch,
            baseBranch: issue.baseBranch,
          },
          include: { poster: true },
        });
        await tx.action.create({
          data: {
            actUserId: BigInt(issue.posterId),
            opType: issue.isPull ? 'create_pull_request' : 'create_issue',
            repoId: BigInt(issue.repoId),
            isPrivate: issue.isPrivate,
            content: `${repository.lastIssueIndex}|${issue.title}`,
          },
        });
        return toIssue(row);
      });
    },

    async findIssue(repoId: number, index: number): Promise<IssueRecord | null> {
      const row = await prisma.issue.findUnique({
        where: { repoId_index: { repoId: BigInt(repoId), index: BigInt(index) } },
        include: { poster: true },
      });
      return row && toIssue(row);
    },

    async listIssues(
      repoId: number,
      filter: { state: 'open' | 'closed' | 'all'; kind: 'issues' | 'pulls' | 'all' },
      offset: number,
      limit: number,
    ): Promise<Page<IssueRecord>> {
      const where: Prisma.IssueWhereInput = { repoId: BigInt(repoId) };
      if (filter.state !== 'all') where.isClosed = filter.state === 'closed';
      if (filter.kind !== 'all') where.isPull = filter.kind === 'pulls';
      const [rows, total] = await Promise.all([
        prisma.issue.findMany({
          where,
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          skip: offset,
          take: limit,
          include: { poster: true },
        }),
        prisma.issue.count({ where }),
      ]);
      return { items: rows.map(toIssue), total };
    },

    async updateIssue(
      issue: IssueRecord,
      changes: { title?: string; body?: string; isClosed?: boolean },
      state: { actorId: number; isPrivate: boolean } | undefined,
    ): Promise<IssueRecord> {
      return prisma.$transaction(async (tx) => {
        const closing = changes.isClosed !== undefined && changes.isClosed !== issue.isClosed;
        const row = await tx.issue.update({
          where: { id: BigInt(issue.id) },
          data: {
            title: changes.title,
            body: changes.body,
            isClosed: changes.isClosed,
            closedAt: closing ? (changes.isClosed ? new Date() : null) : undefined,
          },
          include: { poster: true },
        });
        if (closing && state) {
          const verb = changes.isClosed ? 'close' : 'reopen';
          const opType: ActionType = `${verb}_${issue.isPull ? 'pull_request' : 'issue'}`;
          await tx.action.create({
            data: {
              actUserId: BigInt(state.actorId),
              opType,
              repoId: BigInt(issue.repoId),
              isPrivate: state.isPrivate,
              content: `${issue.index}|`,
            },
          });
        }
        return toIssue(row);
      });
    },

    /** Feed of the organization's repositories, newest first. */
    async listOrganizationFeed(
      orgId: number,
      filter: { includePrivate: boolean; from?: Date; to?: Date },
      offset: number,
      limit: number,
    ): Promise<Page<ActionRecord>> {
      const where: Prisma.ActionWhereInput = { repository: { ownerId: BigInt(orgId) } };
      if (!filter.includePrivate) where.isPrivate = false;
      if (filter.from && filter.to) where.createdAt = { gte: filter.from, lt: filter.to };
      const [rows, total] = await Promise.all([
        prisma.action.findMany({
          where,
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          skip: offset,
          take: limit,
          include: { actUser: true, repository: { include: { owner: true } } },
        }),
        prisma.action.count({ where }),
      ]);
      const repositories = await toRepositories(
        prisma,
        rows.map((row) => row.repository),
      );
      return {
        items: rows.map((row: Action & { actUser: Account }, position) => ({
          id: Number(row.id),
          actUser: toAccount(row.actUser),
          opType: row.opType as ActionType,
          repository: repositories[position]!,
          isPrivate: row.isPrivate,
          content: row.content,
          refName: row.refName,
          createdAt: row.createdAt,
        })),
        total,
      };
    },

    async createToken(token: {
      accountId: number;
      name: string;
      tokenHash: string;
      tokenLastEight: string;
      scopes: string[];
    }): Promise<TokenRecord> {
      const row = await prisma.accessToken.create({
        data: { ...token, accountId: BigInt(token.accountId), scopes: token.scopes.join(',') },
      });
      return toToken(row);
    },

    async findTokenNamed(accountId: number, name: string): Promise<TokenRecord | null> {
      const row = await prisma.accessToken.findUnique({
        where: { accountId_name: { accountId: BigInt(accountId), name } },
      });
      return row && toToken(row);
    },

    async findTokenById(accountId: number, id: number): Promise<TokenRecord | null> {
      const row = await prisma.accessToken.findFirst({
        where: { accountId: BigInt(accountId), id: BigInt(id) },
      });
      return row && toToken(row);
    },

    async findTokenByHash(tokenHash: string): Promise<{ token: TokenRecord; account: AccountRecord } | null> {
      const row = await prisma.accessToken.findUnique({ where: { tokenHash }, include: { account: true } });
      return row && { token: toToken(row), account: toAccount(row.account) };
    },

    async touchToken(id: number): Promise<void> {
      await prisma.accessToken.update({ where: { id: BigInt(id) }, data: { lastUsedAt: new Date() } });
    },

    async deleteToken(id: number): Promise<void> {
      await prisma.accessToken.delete({ where: { id: BigInt(id) } });
    },
  };
  return store;
}

function toToken(row: {
  id: bigint;
  accountId: bigint;
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
    lastUsedAt: row.lastUsedAt,
  };
}
