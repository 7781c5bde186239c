/**
 * The one converter between the domain's records (src/domain/records.ts) and the wire
 * representations (src/wire/schemas.ts), both ways: as Gitea's services/convert does between
 * its models and modules/structs.
 */
import type {
  Member,
  NewProject,
  Project,
  ProjectBaseUpdate,
  ProjectCore,
  ProjectDetails,
  ProjectSettingsDetails,
} from '../domain/records';
import {
  ProjectBase,
  ProjectFull,
  ProjectSettings,
  type CreateProjectRequest,
  type UpdateProjectBaseRequest,
  type UpdateProjectSettingsRequest,
  type UserInfo,
  type UserInfoInput,
} from './schemas';

// ---- records to responses ------------------------------------------------------------------

/**
 * An optional field's value on the wire: left out when unset ("" or an empty list), as LFX's own
 * service answers (schemas.ts says why).
 */
function ifSet<Value extends string | readonly unknown[]>(value: Value): Value | undefined {
  return value.length === 0 ? undefined : value;
}

function userInfoOf(member: Member): UserInfo {
  return {
    avatar: ifSet(member.avatar),
    email: ifSet(member.email),
    name: ifSet(member.name),
    username: ifSet(member.username),
  };
}

function membersOf(members: readonly Member[]): UserInfo[] | undefined {
  return members.length === 0 ? undefined : members.map(userInfoOf);
}

function baseOf(project: ProjectCore): ProjectBase {
  return {
    uid: project.uid,
    slug: project.slug,
    name: project.name,
    description: project.description,
    parent_uid: project.parentUid,
    public: project.public,
    is_foundation: project.isFoundation,
    autojoin_enabled: project.autojoinEnabled,
    category: ifSet(project.category) as ProjectBase['category'],
    stage: ifSet(project.stage) as ProjectBase['stage'],
    legal_entity_type: ifSet(project.legalEntityType) as ProjectBase['legal_entity_type'],
    legal_entity_name: ifSet(project.legalEntityName),
    legal_parent_uid: ifSet(project.legalParentUid),
    funding_model: ifSet(project.fundingModel) as ProjectBase['funding_model'],
    charter_url: ifSet(project.charterUrl),
    entity_formation_document_url: ifSet(project.entityFormationDocumentUrl),
    logo_url: ifSet(project.logoUrl),
    repository_url: ifSet(project.repositoryUrl),
    website_url: ifSet(project.websiteUrl),
    formation_date: ifSet(project.formationDate),
    entity_dissolution_date: ifSet(project.entityDissolutionDate),
    created_at: project.createdAt.toISOString(),
    updated_at: project.updatedAt.toISOString(),
  };
}

function settingsOf(project: Project): ProjectSettings {
  return {
    uid: project.uid,
    announcement_date: ifSet(project.announcementDate),
    mission_statement: ifSet(project.missionStatement),
    writers: membersOf(project.writers),
    auditors: membersOf(project.auditors),
    meeting_coordinators: membersOf(project.meetingCoordinators),
    created_at: project.createdAt.toISOString(),
    updated_at: project.settingsUpdatedAt.toISOString(),
  };
}

/**
 * ProjectFull of a listed project. Not re-validated: the list converts every row, a batch at a
 * time, and its rows were validated when written.
 */
export function listedProjectFull(project: Project): ProjectFull {
  const base = baseOf(project);
  const settings = settingsOf(project);
  // The full representation changed when either part did.
  const updated = project.updatedAt > project.settingsUpdatedAt ? base.updated_at : settings.updated_at;
  return { ...base, ...settings, updated_at: updated };
}

/**
 * The representations as a change event's `data` (src/events/project-events.ts): not validated
 * again, since the response of the same write is (projectBaseOf and the others below), from the
 * same record.
 */
export const eventRepresentations = {
  base: baseOf,
  settings: settingsOf,
  full: listedProjectFull,
};

// A single representation is checked against its schema on the way out: a stored value the
// schema refuses is a 500 here, not a malformed body at the client.

export function projectBaseOf(project: ProjectCore): ProjectBase {
  return ProjectBase.parse(baseOf(project));
}

export function projectSettingsOf(project: Project): ProjectSettings {
  return ProjectSettings.parse(settingsOf(project));
}

export function projectFullOf(project: Project): ProjectFull {
  return ProjectFull.parse(listedProjectFull(project));
}

/**
 * A project.snapshot event's data: the project as GET /projects/{uid} answers (its updated_at the
 * base's), with `settings` as GET /projects/{uid}/settings answers (their own updated_at).
 */
export function projectSnapshotOf(project: Project): ProjectBase & { settings: ProjectSettings } {
  return { ...projectBaseOf(project), settings: projectSettingsOf(project) };
}

// ---- requests to domain inputs ---------------------------------------------------------------

function memberOf(user: UserInfoInput): Member {
  return { username: user.username, name: user.name, email: user.email, avatar: user.avatar };
}

function detailsOf(request: UpdateProjectBaseRequest | CreateProjectRequest): ProjectDetails {
  return {
    slug: request.slug,
    name: request.name,
    description: request.description,
    public: request.public,
    isFoundation: request.is_foundation,
    autojoinEnabled: request.autojoin_enabled,
    category: request.category,
    stage: request.stage,
    legalEntityType: request.legal_entity_type,
    legalEntityName: request.legal_entity_name,
    legalParentUid: request.legal_parent_uid,
    fundingModel: request.funding_model,
    charterUrl: request.charter_url,
    entityFormationDocumentUrl: request.entity_formation_document_url,
    logoUrl: request.logo_url,
    repositoryUrl: request.repository_url,
    websiteUrl: request.website_url,
    formationDate: request.formation_date,
    entityDissolutionDate: request.entity_dissolution_date,
  };
}

export function projectSettingsUpdateOf(
  request: UpdateProjectSettingsRequest | CreateProjectRequest,
): ProjectSettingsDetails {
  return {
    announcementDate: request.announcement_date,
    missionStatement: request.mission_statement,
    writers: request.writers.map(memberOf),
    auditors: request.auditors.map(memberOf),
    meetingCoordinators: request.meeting_coordinators.map(memberOf),
  };
}

export function newProjectOf(request: CreateProjectRequest): NewProject {
  return { ...detailsOf(request), parentUid: request.parent_uid, ...projectSettingsUpdateOf(request) };
}

/** `parent_uid` "" (what a GET of the root returns) asks for no parent. */
export function projectBaseUpdateOf(request: UpdateProjectBaseRequest): ProjectBaseUpdate {
  return { ...detailsOf(request), parentUid: request.parent_uid === '' ? undefined : request.parent_uid };
}
