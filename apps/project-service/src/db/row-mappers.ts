import type { Member, Project, ProjectCore, ProjectDetails, ProjectSettingsDetails } from '../domain/records';
import type { Project as ProjectModel, ProjectMember } from '../generated/prisma/client';

/** The member lists of a project and the `role` each has in project_members. */
const MEMBER_ROLES = {
  writers: 'writer',
  auditors: 'auditor',
  meetingCoordinators: 'meeting_coordinator',
} as const;
type MemberList = keyof typeof MEMBER_ROLES;

/** A member as the project statements return it (project-read.ts's JSON aggregate). */
export type MemberRow = Pick<ProjectMember, 'role' | 'username' | 'name' | 'email' | 'avatar'>;

function membersOf(row: { members: MemberRow[] }, list: MemberList): Member[] {
  return row.members
    .filter((member) => member.role === MEMBER_ROLES[list])
    .map(({ avatar, email, name, username }) => ({ avatar, email, name, username }));
}

/** A project row (with its members) as the domain's record. */
export function projectOf(row: ProjectModel & { members: MemberRow[] }): Project {
  return {
    ...projectCoreOf(row),
    writers: membersOf(row, 'writers'),
    auditors: membersOf(row, 'auditors'),
    meetingCoordinators: membersOf(row, 'meetingCoordinators'),
  };
}

/** A project row without its members as the domain's record without the member lists. */
export function projectCoreOf(row: ProjectModel): ProjectCore {
  return {
    uid: row.uid,
    parentUid: row.parentUid ?? undefined,
    slug: row.slug,
    name: row.name,
    description: row.description,
    public: row.public,
    isFoundation: row.isFoundation,
    autojoinEnabled: row.autojoinEnabled,
    category: row.category,
    stage: row.stage,
    legalEntityType: row.legalEntityType,
    legalEntityName: row.legalEntityName,
    legalParentUid: row.legalParentUid,
    fundingModel: row.fundingModel ?? [],
    charterUrl: row.charterUrl,
    entityFormationDocumentUrl: row.entityFormationDocumentUrl,
    logoUrl: row.logoUrl,
    repositoryUrl: row.repositoryUrl,
    websiteUrl: row.websiteUrl,
    formationDate: row.formationDate,
    entityDissolutionDate: row.entityDissolutionDate,
    announcementDate: row.announcementDate,
    missionStatement: row.missionStatement,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    settingsUpdatedAt: row.settingsUpdatedAt,
    baseRevision: row.baseRevision,
    settingsRevision: row.settingsRevision,
  };
}

/** The base columns of a write (the parent is the caller's to set). */
export function baseColumns(details: ProjectDetails) {
  return {
    slug: details.slug,
    name: details.name,
    description: details.description,
    public: details.public,
    isFoundation: details.isFoundation,
    autojoinEnabled: details.autojoinEnabled,
    category: details.category,
    stage: details.stage,
    legalEntityType: details.legalEntityType,
    legalEntityName: details.legalEntityName,
    legalParentUid: details.legalParentUid,
    fundingModel: details.fundingModel,
    charterUrl: details.charterUrl,
    entityFormationDocumentUrl: details.entityFormationDocumentUrl,
    logoUrl: details.logoUrl,
    repositoryUrl: details.repositoryUrl,
    websiteUrl: details.websiteUrl,
    formationDate: details.formationDate,
    entityDissolutionDate: details.entityDissolutionDate,
  };
}

/** The project_members rows of the settings, each list in its order. */
export function memberRows(settings: ProjectSettingsDetails) {
  return (Object.keys(MEMBER_ROLES) as MemberList[]).flatMap((list) =>
    settings[list].map((member, position) => ({ role: MEMBER_ROLES[list], position, ...member })),
  );
}
