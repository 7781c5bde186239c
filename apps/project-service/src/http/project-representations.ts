/**
 * The one converter between the domain's records (src/domain/records.ts) and the wire
 * representations (src/http/schemas.ts), both ways: as Gitea's services/convert does between
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
} from './schemas';

// ---- records to responses ------------------------------------------------------------------

function userInfoOf(member: Member): UserInfo {
  return { avatar: member.avatar, email: member.email, name: member.name, username: member.username };
}

function baseOf(project: ProjectCore): ProjectBase {
  return {
    uid: project.uid,
    slug: project.slug,
    name: project.name,
    description: project.description,
    parent_uid: project.parentUid ?? '',
    public: project.public,
    is_foundation: project.isFoundation,
    autojoin_enabled: project.autojoinEnabled,
    category: project.category as ProjectBase['category'],
    stage: project.stage as ProjectBase['stage'],
    legal_entity_type: project.legalEntityType as ProjectBase['legal_entity_type'],
    legal_entity_name: project.legalEntityName,
    legal_parent_uid: project.legalParentUid,
    funding_model: project.fundingModel as ProjectBase['funding_model'],
    charter_url: project.charterUrl,
    entity_formation_document_url: project.entityFormationDocumentUrl,
    logo_url: project.logoUrl,
    repository_url: project.repositoryUrl,
    website_url: project.websiteUrl,
    formation_date: project.formationDate,
    entity_dissolution_date: project.entityDissolutionDate,
    created_at: project.createdAt.toISOString(),
    updated_at: project.updatedAt.toISOString(),
  };
}

function settingsOf(project: Project): ProjectSettings {
  return {
    uid: project.uid,
    announcement_date: project.announcementDate,
    mission_statement: project.missionStatement,
    writers: project.writers.map(userInfoOf),
    auditors: project.auditors.map(userInfoOf),
    meeting_coordinators: project.meetingCoordinators.map(userInfoOf),
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

function memberOf(user: UserInfo): Member {
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
