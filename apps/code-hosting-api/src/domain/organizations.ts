import {
  conflict,
  forbidden,
  isUniqueConstraintViolation,
  notFound,
  unprocessableEntity,
} from '@repo/http-errors';
import type { ServiceSettings } from '../config';
import type { Store } from './store';
import { accountExistsError, assertUsableAccountName, isValidEmail } from './account-names';
import { canSeeAccount, membershipOf } from './access';
import { isSiteAdmin, requireUser, type Caller } from './caller';
import { offsetOf, type ListOptions } from './pagination';
import { levelRank, type AccountRecord, type ActionRecord, type Page, type Visibility } from './records';

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

export function organizationService(store: Store, settings: ServiceSettings) {
  /** The organization when the caller may see it; 404 otherwise, as if it did not exist. */
  async function visibleOrganization(caller: Caller, name: string): Promise<AccountRecord> {
    const org = await store.findAccountByName(name);
    if (!org || org.type !== 'organization' || !(await canSeeAccount(store, caller, org))) {
      throw notFound(`organization ${name} does not exist`);
    }
    return org;
  }

  /** Gitea's reqOrgOwnership: site admins and members of an owner-level team. */
  async function ownedOrganization(caller: Caller, name: string): Promise<AccountRecord> {
    const user = requireUser(caller);
    const org = await visibleOrganization(caller, name);
    if (isSiteAdmin(caller)) return org;
    if (caller.publicOnly || (await membershipOf(store, org, user.id)).level !== 'owner') {
      throw forbidden('must be an organization owner');
    }
    return org;
  }

  function assertDangerZoneAllowed(caller: Caller): void {
    if (settings.orgDangerZoneRestricted && !isSiteAdmin(caller)) throw forbidden(dangerZoneMessage);
  }

  function assertEmail(email: string | undefined): void {
    if (email !== undefined && email !== '' && !isValidEmail(email)) {
      throw unprocessableEntity(`email: e-mail address is invalid [email: ${email}]`);
    }
  }

  async function assertNameFree(name: string, exceptId?: number): Promise<void> {
    const existing = await store.findAccountByName(name);
    if (existing && existing.id !== exceptId) throw accountExistsError(name);
  }

  return {
    visibleOrganization,

    /** GET /orgs (seed rule 1): public for anonymous and public-only callers, + limited when signed in, all for admins. */
    async listAll(caller: Caller, options: ListOptions): Promise<Page<AccountRecord>> {
      const offset = offsetOf(options);
      if (!caller.user || caller.publicOnly)
        return store.listOrganizations({ visibilities: ['public'] }, offset, options.pageSize);
      if (caller.user.isAdmin)
        return store.listOrganizations(
          { visibilities: ['public', 'limited', 'private'] },
          offset,
          options.pageSize,
        );
      // As Gitea's SearchUsers with an actor: private organizations show to their own members.
      return store.listOrganizations(
        { visibilities: ['public', 'limited'], memberId: caller.user.id, memberVisibilities: ['private'] },
        offset,
        options.pageSize,
      );
    },

    /** GET /user/orgs: every organization the caller belongs to (public ones only through a public-only token). */
    async listOwn(caller: Caller, options: ListOptions): Promise<Page<AccountRecord>> {
      const user = requireUser(caller);
      const visibilities: Visibility[] = caller.publicOnly ? ['public'] : ['public', 'limited', 'private'];
      return store.listOrganizationsOfMember(user.id, visibilities, offsetOf(options), options.pageSize);
    },

    /** GET /users/{username}/orgs: the user's organizations the caller may see. */
    async listOfUser(caller: Caller, username: string, options: ListOptions): Promise<Page<AccountRecord>> {
      const user = await store.findAccountByName(username);
      if (!user || user.type !== 'user' || !(await canSeeAccount(store, caller, user)))
        throw notFound(`user ${username} does not exist`);
      if (caller.user && !caller.publicOnly && (caller.user.isAdmin || caller.user.id === user.id)) {
        return store.listOrganizationsOfMember(
          user.id,
          ['public', 'limited', 'private'],
          offsetOf(options),
          options.pageSize,
        );
      }
      if (!caller.user || caller.publicOnly) {
        return store.listOrganizationsOfMember(user.id, ['public'], offsetOf(options), options.pageSize);
      }
      // Private organizations show only when the caller is a member too: filter, then page.
      const all = await store.listOrganizationsOfMember(
        user.id,
        ['public', 'limited', 'private'],
        0,
        Number.MAX_SAFE_INTEGER,
      );
      const visible: AccountRecord[] = [];
      for (const org of all.items) if (await canSeeAccount(store, caller, org)) visible.push(org);
      const offset = offsetOf(options);
      return { items: visible.slice(offset, offset + options.pageSize), total: visible.length };
    },

    /** GET /users/{username}/orgs/{org}/permissions. */
    async permissions(caller: Caller, username: string, orgName: string): Promise<OrganizationPermissions> {
      const requester = requireUser(caller);
      const user = await store.findAccountByName(username);
      if (!user || user.type !== 'user' || !(await canSeeAccount(store, caller, user)))
        throw notFound(`user ${username} does not exist`);
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
      const membership = await membershipOf(store, org, user.id);
      const rank = levelRank(membership.level);
      return {
        canRead: rank > levelRank('none'),
        canWrite: rank > levelRank('read'),
        isAdmin: rank > levelRank('write'),
        isOwner: rank > levelRank('admin'),
        canCreateRepository: membership.canCreateRepository,
      };
    },

    /** POST /orgs (seed rule 2). */
    async create(caller: Caller, name: string, fields: OrganizationFields): Promise<AccountRecord> {
      const user = requireUser(caller);
      const allowed =
        isSiteAdmin(caller) ||
        (user.allowCreateOrganization && !settings.disableRegularOrgCreation && !caller.publicOnly);
      if (!allowed) throw forbidden('user is not allowed to create organizations');
      assertUsableAccountName(name, 'username');
      assertEmail(fields.email);
      await assertNameFree(name);
      try {
        return await store.createOrganization(
          { ...fields, name, type: 'organization', visibility: fields.visibility ?? 'public' },
          user.id,
        );
      } catch (error) {
        if (isUniqueConstraintViolation(error)) throw accountExistsError(name);
        throw error;
      }
    },

    /** GET /orgs/{org} (seed rule 3); the email is blanked for anonymous callers by the HTTP layer. */
    get: visibleOrganization,

    /** PATCH /orgs/{org} (seed rules 4 and 6): only supplied fields change. */
    async edit(caller: Caller, name: string, fields: OrganizationFields): Promise<AccountRecord> {
      const org = await ownedOrganization(caller, name);
      if (fields.visibility !== undefined && fields.visibility !== org.visibility)
        assertDangerZoneAllowed(caller);
      assertEmail(fields.email);
      const changes = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
      if (Object.keys(changes).length === 0) return org;
      return store.updateAccount(org.id, changes);
    },

    /** POST /orgs/{org}/rename (seed rules 4 and 5): the id, members, repositories and feed stay. */
    async rename(caller: Caller, name: string, newName: string): Promise<void> {
      const org = await ownedOrganization(caller, name);
      assertDangerZoneAllowed(caller);
      if (newName === org.name) return;
      assertUsableAccountName(newName, 'new_name');
      await assertNameFree(newName, org.id);
      try {
        await store.renameAccount(org.id, newName);
      } catch (error) {
        if (isUniqueConstraintViolation(error)) throw accountExistsError(newName);
        throw error;
      }
    },

    /** DELETE /orgs/{org} (seed rule 4): refused while the organization owns repositories. */
    async remove(caller: Caller, name: string): Promise<void> {
      const org = await ownedOrganization(caller, name);
      assertDangerZoneAllowed(caller);
      if (!(await store.deleteOrganizationWithoutRepositories(org.id))) {
        throw conflict(`organization ${org.name} still owns repositories; delete or transfer them first`);
      }
    },

    /** GET /orgs/{org}/activities/feeds (seed rule 7). */
    async feed(
      caller: Caller,
      name: string,
      date: string | undefined,
      options: ListOptions,
    ): Promise<Page<ActionRecord>> {
      const org = await visibleOrganization(caller, name);
      const includePrivate =
        caller.user !== null &&
        !caller.publicOnly &&
        (caller.user.isAdmin || (await membershipOf(store, org, caller.user.id)).isMember);
      const day = date === undefined ? undefined : dayRange(date);
      return store.listOrganizationFeed(
        org.id,
        { includePrivate, ...day },
        offsetOf(options),
        options.pageSize,
      );
    },
  };
}

/** The UTC day of a YYYY-MM-DD date. */
function dayRange(date: string): { from: Date; to: Date } {
  const from = new Date(`${date}T00:00:00.000Z`);
  if (Number.isNaN(from.getTime()) || from.toISOString().slice(0, 10) !== date) {
    throw unprocessableEntity(`date: must be a date in the form YYYY-MM-DD [date: ${date}]`);
  }
  return { from, to: new Date(from.getTime() + 24 * 60 * 60 * 1000) };
}

export type OrganizationService = ReturnType<typeof organizationService>;
