import type {
  CreateProjectRequest,
  ProjectBase,
  ProjectFull,
  ProjectSettings,
  UpdateProjectBaseRequest,
  UpdateProjectSettingsRequest,
} from '../api/project-schemas';
import type { ChainMembership } from './access';
import type { Caller } from './caller';
import type { AllowedRevisions } from './revisions';

/** A project as stored, in its three representations, with the revisions behind their ETags. */
export interface StoredProject {
  uid: string;
  parentUid: string | undefined;
  full: ProjectFull;
  base: ProjectBase;
  settings: ProjectSettings;
  baseRevision: number;
  settingsRevision: number;
}

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

export type WriteOutcome<T> =
  | { kind: 'written'; value: T }
  | { kind: 'missing' }
  | { kind: 'stale' }
  | { kind: 'slug-taken' }
  | { kind: 'parent-missing' }
  /** The new parent is the project itself or one of its descendants. */
  | { kind: 'cycle' };

export type DeleteOutcome =
  { kind: 'deleted' } | { kind: 'missing' } | { kind: 'stale' } | { kind: 'has-children' };

/** Reads pages of the list. */
export interface ListReader {
  /** One page of the projects the caller may view, in list order, after `cursor`. */
  listVisible(
    caller: Caller,
    filter: ListFilter,
    cursor: ListCursor | undefined,
    limit: number,
  ): Promise<ProjectFull[]>;
}

/** What the domain needs from storage; src/db/project-store.ts implements it with Prisma. */
export interface ProjectStore extends ListReader {
  /** The caller's memberships along the project's ancestor chain, in one query; undefined when the project does not exist. */
  membership(uid: string, principal: string): Promise<ChainMembership | undefined>;
  find(uid: string): Promise<StoredProject | undefined>;
  create(request: CreateProjectRequest): Promise<WriteOutcome<StoredProject>>;
  /** Re-parenting is checked for cycles in the same transaction as the write, serialized with other moves. */
  updateBase(
    uid: string,
    request: UpdateProjectBaseRequest,
    allowed: AllowedRevisions,
  ): Promise<WriteOutcome<StoredProject>>;
  updateSettings(
    uid: string,
    request: UpdateProjectSettingsRequest,
    allowed: AllowedRevisions,
  ): Promise<WriteOutcome<StoredProject>>;
  delete(uid: string, allowed: AllowedRevisions): Promise<DeleteOutcome>;
  /** Runs `work` with a reader whose every page comes from one database snapshot. */
  inSnapshot<T>(work: (reader: ListReader) => Promise<T>): Promise<T>;
}
