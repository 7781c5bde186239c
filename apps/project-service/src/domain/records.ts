/**
 * Projects in the domain's own terms. The wire representations (ProjectBase, ProjectSettings,
 * ProjectFull and the request bodies) are src/wire's; src/wire/project-representations.ts
 * converts between the two, and the store reads and writes these records.
 */

/** A person listed on a project (writers, auditors, meeting coordinators); roles go by `username`. */
export interface Member {
  username: string;
  name: string;
  email: string;
  avatar: string;
}

/** The base information a caller writes; "" means never set. */
export interface ProjectDetails {
  slug: string;
  name: string;
  description: string;
  public: boolean;
  isFoundation: boolean;
  autojoinEnabled: boolean;
  category: string;
  stage: string;
  legalEntityType: string;
  legalEntityName: string;
  legalParentUid: string;
  fundingModel: string[];
  charterUrl: string;
  entityFormationDocumentUrl: string;
  logoUrl: string;
  repositoryUrl: string;
  websiteUrl: string;
  /** YYYY-MM-DD, or "". */
  formationDate: string;
  /** YYYY-MM-DD, or "". */
  entityDissolutionDate: string;
}

/** The settings a caller writes; the member lists carry the roles. */
export interface ProjectSettingsDetails {
  /** YYYY-MM-DD, or "". */
  announcementDate: string;
  missionStatement: string;
  writers: Member[];
  auditors: Member[];
  meetingCoordinators: Member[];
}

/** A stored project, with the revision counters behind its two ETags. */
export interface Project extends ProjectDetails, ProjectSettingsDetails {
  uid: string;
  /** undefined for the root project, the only one without a parent. */
  parentUid: string | undefined;
  createdAt: Date;
  /** The last write of the base information. */
  updatedAt: Date;
  /** The last write of the settings. */
  settingsUpdatedAt: Date;
  baseRevision: number;
  settingsRevision: number;
}

/** The member lists of the settings. */
export type MemberLists = 'writers' | 'auditors' | 'meetingCoordinators';

/** A stored project without its member lists: what the base representation shows, read without them. */
export type ProjectCore = Omit<Project, MemberLists>;

/** What creating a project takes. */
export interface NewProject extends ProjectDetails, ProjectSettingsDetails {
  parentUid: string;
}

/** What updating the base information takes; `parentUid` undefined asks for no parent (the root's). */
export interface ProjectBaseUpdate extends ProjectDetails {
  parentUid: string | undefined;
}

/** What updating the settings takes. */
export type ProjectSettingsUpdate = ProjectSettingsDetails;

/** Position in the list order (name, then uid). */
export interface ListCursor {
  name: string;
  uid: string;
}

export interface ListFilter {
  parentUid?: string;
  slug?: string;
  stage?: string;
  category?: string;
  public?: boolean;
}
