import { conflict, forbidden, notFound } from '@repo/http-errors';
import type { TeamInsert } from './organization-store';
import type { Store } from './store';
import { accountExistsError, assertUsableAccountName, assertValidEmail } from './account-names';
import {
  accountVisibilityScope,
  type Membership,
  membershipOf,
  ownerMembership,
  repositoryLevelFrom,
  requireOrganizationOwner,
  visibleAccount,
  visibleOrganization as visibleOrganizationIn,
} from './access';
import { isSiteAdmin, requireUser, type Caller } from './caller';
import { offsetOf, type ListOptions } from './pagination';
import {
  levelRank,
  type AccessLevel,
  type AccountRecord,
  type ActionRecord,
  type Page,
  type Visibility,
} from './records';

/** One day: the feed's `date` narrows it to the day starting at that UTC midnight. */
const DAY_MS = 24 * 60 * 60 * 1000;

export const dangerZoneMessage = 'Organization danger zone actions are restricted to site administrators';

export interface OrganizationFields {
  fullName?: string;
  email?: string;
  description?: string;
  website?: string;
  location?: string;
  visibility?: Visibility;
  repoAdminChangeTeamAccess?: boolean;
}

export interface OrganizationPermissions {
  canRead: boolean;
  canWrite: boolean;
  isAdmin: boolean;
  isOwner: boolean;
  canCreateRepository: boolean;
}

/** What a membership lets its member do in the organization. */
function permissionsOf(membership: Membership): OrganizationPermissions {
  const rank = levelRank(membership.level);
  return {
    canRead: rank > levelRank('none'),
    canWrite: rank > levelRank('read'),
    isAdmin: rank > levelRank('write'),
    isOwner: rank > levelRank('admin'),
    canCreateRepository: membership.canCreateRepository,
  };
}

/** The deployment settings organization rules read. */
export interface OrganizationSettings {
  /** Danger-zone actions on organizations are for site administrators only. */
  orgDangerZoneRestricted: boolean;
  /** Only site administrators may create organizations. */
  disableRegularOrgCreation: boolean;
}

/** Every organization starts with this team, holding its creator (Gitea's Owners team). */
export const ownersTeam: Omit<TeamInsert, 'orgId'> = {
  name: 'Owners',
  description: '',
  permission: 'owner',
  canCreateOrgRepo: true,
  includesAllRepositories: true,
};

export function organizationService(store: Store, settings: OrganizationSettings) {
  /** The organization when the caller may see it; 404 otherwise, as if it did not exist. */
  const visibleOrganization = (caller: Caller, name: string) => visibleOrganizationIn(store, caller, name);

  /** Gitea's reqOrgOwnership: site admins and members of an owner-level team. */
  async function ownedOrganization(caller: Caller, name: string): Promise<AccountRecord> {
    requireUser(caller);
    const org = await visibleOrganization(caller, name);
    await requireOrganizationOwner(store, caller, org);
    return org;
  }

  function assertDangerZoneAllowed(caller: Caller): void {
    if (settings.orgDangerZoneRestricted && !isSiteAdmin(caller)) throw forbidden(dangerZoneMessage);
  }

  /** An organization's e-mail address is optional: `""` clears it. */
  function assertEmail(email: string | undefined): void {
    if (email !== undefined && email !== '') assertValidEmail(email);
  }

  async function assertNameFree(name: string, exceptId?: number): Promise<void> {
    const existing = await store.findAccountByName(name);
    if (existing && existing.id !== exceptId) throw accountExistsError(name);
  }

  /** Organization rule 2 (docs/contracts/code-hosting-api.md): site admins always; others when their account and the deployment allow it. */
  function assertMayCreate(caller: Caller): AccountRecord {
    const user = requireUser(caller);
    if (!mayCreate(caller)) throw forbidden('user is not allowed to create organizations');
    return user;
  }

  function mayCreate(caller: Caller): boolean {
    return (
      isSiteAdmin(caller) ||
      (caller.user !== undefined &&
        caller.user.allowCreateOrganization &&
        !settings.disableRegularOrgCreation &&
        !caller.publicOnly)
    );
  }

  /** Who may rename or delete: owners, and only site administrators under the danger-zone setting. */
  async function renamableOrganization(caller: Caller, name: string): Promise<AccountRecord> {
    const org = await ownedOrganization(caller, name);
    assertDangerZoneAllowed(caller);
    return org;
  }

  return {
    visibleOrganization,
    assertMayCreate,
    ownedOrganization,
    renamableOrganization,

    /** GET /orgs (organization rule 1): the organizations the caller may see (access.ts says which). */
    async listAll(caller: Caller, options: ListOptions): Promise<Page<AccountRecord>> {
      // As Gitea's SearchUsers with an actor: private organizations show to their own members.
      const filter = { visibleTo: accountVisibilityScope(caller) };
      return store.listOrganizations(filter, offsetOf(options), options.pageSize);
    },

    /** GET /admin/orgs (Gitea's adminGetAllOrgs): every organization, for site administrators. */
    async adminListAll(caller: Caller, options: ListOptions): Promise<Page<AccountRecord>> {
      requireUser(caller);
      if (!isSiteAdmin(caller)) throw forbidden('must be a site administrator');
      return store.listOrganizations(
        { visibleTo: accountVisibilityScope(caller) },
        offsetOf(options),
        options.pageSize,
      );
    },

    /** GET /user/orgs: every organization the caller belongs to (public ones only through a public-only token). */
    async listOwn(caller: Caller, options: ListOptions): Promise<Page<AccountRecord>> {
      const user = requireUser(caller);
      const filter = { visibleTo: accountVisibilityScope(caller), withMember: user.id };
      return store.listOrganizations(filter, offsetOf(options), options.pageSize);
    },

    /** GET /users/{username}/orgs: the user's organizations the caller may see, filtered and paged by the query. */
    async listOfUser(caller: Caller, username: string, options: ListOptions): Promise<Page<AccountRecord>> {
      const user = await visibleAccount(store, caller, 'user', username);
      const filter = { visibleTo: accountVisibilityScope(caller), withMember: user.id };
      return store.listOrganizations(filter, offsetOf(options), options.pageSize);
    },

    /** GET /users/{username}/orgs/{org}/permissions. */
    async permissions(caller: Caller, username: string, orgName: string): Promise<OrganizationPermissions> {
      const requester = requireUser(caller);
      const user = await visibleAccount(store, caller, 'user', username);
      const org = await visibleOrganization(caller, orgName);
      if (
        requester.id !== user.id &&
        !isSiteAdmin(caller) &&
        !(await membershipOf(store, org, requester.id)).isMember
      ) {
        throw forbidden(
          "only the user, site administrators and the organization's members may see the user's permissions",
        );
      }
      return permissionsOf(await membershipOf(store, org, user.id));
    },

    /** POST /orgs (organization rule 2). */
    async create(caller: Caller, name: string, fields: OrganizationFields): Promise<AccountRecord> {
      const user = assertMayCreate(caller);
      assertUsableAccountName(name, 'username');
      assertEmail(fields.email);
      // A taken name (a user's or an organization's, in any case) fails the write itself: no read
      // before it, which a concurrent creation could outrun anyway.
      const created = await store.createOrganization(
        { ...fields, name, type: 'organization', visibility: fields.visibility ?? 'public' },
        { team: ownersTeam, memberId: user.id },
      );
      if (created.kind === 'name-taken') throw accountExistsError(name);
      return created.value;
    },

    /** GET /orgs/{org} (organization rule 3); the email is blanked for anonymous callers by the HTTP layer. */
    get: visibleOrganization,

    /** PATCH /orgs/{org} (organization rules 4 and 6): only supplied fields change. */
    async edit(caller: Caller, name: string, fields: OrganizationFields): Promise<AccountRecord> {
      const org = await ownedOrganization(caller, name);
      if (fields.visibility !== undefined && fields.visibility !== org.visibility)
        assertDangerZoneAllowed(caller);
      assertEmail(fields.email);
      const changes = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
      if (Object.keys(changes).length === 0) return org;
      // Deleted since its ownership was checked: as if it had been gone then.
      const updated = await store.updateOrganization(org.id, changes);
      if (!updated) throw notFound(`organization ${name} does not exist`);
      return updated;
    },

    /** POST /orgs/{org}/rename (organization rules 4 and 5): the id, members, repositories and feed stay. */
    async rename(caller: Caller, name: string, newName: string): Promise<void> {
      const org = await renamableOrganization(caller, name);
      if (newName === org.name) return;
      assertUsableAccountName(newName, 'new_name');
      await assertNameFree(newName, org.id);
      const renamed = await store.renameOrganization(org.id, org.name, newName);
      if (renamed.kind === 'name-taken') throw accountExistsError(newName);
      // A concurrent rename (or delete) won since the read above: the old name is gone.
      if (!renamed.value) throw notFound(`organization ${name} does not exist`);
    },

    /** DELETE /orgs/{org} (organization rule 4): refused while the organization owns repositories. */
    async remove(caller: Caller, name: string): Promise<void> {
      const org = await ownedOrganization(caller, name);
      assertDangerZoneAllowed(caller);
      if ((await store.deleteOrganizationWithoutRepositories(org.id)).kind === 'owns-repositories') {
        throw conflict(`organization ${org.name} still owns repositories; delete or transfer them first`);
      }
    },

    /**
     * GET /orgs/{org}/activities/feeds (organization rule 7): each entry with the caller's level on
     * its repository; with `day` (a UTC midnight), the entries of that day only.
     */
    async feed(
      caller: Caller,
      name: string,
      day: Date | undefined,
      options: ListOptions,
    ): Promise<Page<{ action: ActionRecord; level: AccessLevel }>> {
      const org = await visibleOrganization(caller, name);
      // Every entry's repository belongs to the organization: one membership serves the page.
      const membership = await ownerMembership(store, caller, org);
      const includePrivate =
        caller.user !== undefined && !caller.publicOnly && (caller.user.isAdmin || membership.isMember);
      const page = await store.listOrganizationFeed(
        org.id,
        { includePrivate, ...(day && { from: day, to: new Date(day.getTime() + DAY_MS) }) },
        caller.user?.id,
        offsetOf(options),
        options.pageSize,
      );
      return {
        items: page.items.map(({ action, viewerCollaboration }) => ({
          action,
          level: repositoryLevelFrom(caller, action.repository, membership, viewerCollaboration),
        })),
        total: page.total,
      };
    },
  };
}

export type OrganizationService = ReturnType<typeof organizationService>;
