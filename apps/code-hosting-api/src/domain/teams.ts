import { conflict, forbidden, notFound, unprocessableEntity } from '@repo/http-errors';
import type { Store } from './store';
import { canSeeAccount, membershipOf, requireOrganizationOwner, visibleOrganization } from './access';
import { isSiteAdmin, requireUser, type Caller } from './caller';
import { offsetOf, type ListOptions } from './pagination';
import type { AccountRecord, Page, TeamRecord } from './records';
import type { RequestedNumber } from './requested-number';

export interface NewTeam {
  name: string;
  description?: string;
  permission?: TeamRecord['permission'];
  canCreateOrgRepo?: boolean;
  includesAllRepositories?: boolean;
}

export function teamService(store: Store) {
  const requireOwner = (caller: Caller, org: AccountRecord) => requireOrganizationOwner(store, caller, org);

  /** The team and its organization; 404 when either is not visible to the caller. */
  async function visibleTeam(
    caller: Caller,
    id: RequestedNumber,
  ): Promise<{ team: TeamRecord; org: AccountRecord }> {
    const team = id.value === undefined ? undefined : await store.findTeam(id.value);
    const org = team && (await store.findAccountById(team.orgId));
    if (!team || !org || !(await canSeeAccount(store, caller, org)))
      throw notFound(`team ${id.text} does not exist`);
    return { team, org };
  }

  /** The organization whose teams the caller may create: owners only. */
  async function ownedOrganization(caller: Caller, orgName: string): Promise<AccountRecord> {
    const org = await visibleOrganization(store, caller, orgName);
    await requireOwner(caller, org);
    return org;
  }

  return {
    ownedOrganization,

    /** POST /orgs/{org}/teams: organization owners only. */
    async create(
      caller: Caller,
      orgName: string,
      team: NewTeam,
    ): Promise<{ team: TeamRecord; org: AccountRecord }> {
      const org = await ownedOrganization(caller, orgName);
      if (await store.findTeamByName(org.id, team.name))
        throw unprocessableEntity(`team already exists [name: ${team.name}]`);
      const permission = team.permission ?? 'read';
      const created = await store.createTeam({
        orgId: org.id,
        name: team.name,
        description: team.description ?? '',
        permission,
        canCreateOrgRepo: permission === 'owner' || (team.canCreateOrgRepo ?? false),
        includesAllRepositories: permission === 'owner' || (team.includesAllRepositories ?? false),
      });
      // A concurrent creation of the same name may have won since the check above.
      if (created.kind === 'name-taken')
        throw unprocessableEntity(`team already exists [name: ${team.name}]`);
      return { team: created.value, org };
    },

    /** GET /orgs/{org}/teams: members of the organization and site admins. */
    async list(
      caller: Caller,
      orgName: string,
      options: ListOptions,
    ): Promise<{ page: Page<TeamRecord>; org: AccountRecord }> {
      const user = requireUser(caller);
      const org = await visibleOrganization(store, caller, orgName);
      if (!isSiteAdmin(caller) && !(await membershipOf(store, org, user.id)).isMember) {
        throw forbidden('must be a member of the organization');
      }
      return { page: await store.listTeams(org.id, offsetOf(options), options.pageSize), org };
    },

    /** PUT /teams/{id}/members/{username}. */
    async addMember(caller: Caller, teamId: RequestedNumber, username: string): Promise<void> {
      const { team, org } = await visibleTeam(caller, teamId);
      await requireOwner(caller, org);
      const user = await store.findAccountByName(username);
      if (!user || user.type !== 'user') throw notFound(`user ${username} does not exist`);
      await store.addTeamMember(team.id, user.id);
    },

    /** DELETE /teams/{id}/members/{username}: an owner team keeps at least one member. */
    async removeMember(caller: Caller, teamId: RequestedNumber, username: string): Promise<void> {
      const { team, org } = await visibleTeam(caller, teamId);
      await requireOwner(caller, org);
      const user = await store.findAccountByName(username);
      if (!user || user.type !== 'user') throw notFound(`user ${username} does not exist`);
      const removal = await store.removeTeamMember(team.id, user.id, team.permission === 'owner');
      if (removal.kind === 'last-member') {
        throw conflict('cannot remove the last member of an owner team');
      }
    },
  };
}

export type TeamService = ReturnType<typeof teamService>;
