import type { ChainMembership } from './access';
import type { Caller } from './caller';
import type {
  ListCursor,
  ListFilter,
  NewProject,
  Project,
  ProjectCore,
  ProjectBaseUpdate,
  ProjectSettingsUpdate,
} from './records';
import type { AllowedRevisions } from './revisions';

export type WriteOutcome<T> =
  | { kind: 'written'; value: T }
  | { kind: 'missing' }
  | { kind: 'stale' }
  | { kind: 'slug-taken' }
  | { kind: 'parent-missing' }
  /** The new parent is the project itself or one of its descendants. */
  | { kind: 'cycle' };

/** A project and what accessOf() decides the caller's rights on, read together (one snapshot). */
export interface ProjectReadout<Record> {
  membership: ChainMembership;
  project: Record;
}

export type DeleteOutcome =
  { kind: 'deleted' } | { kind: 'missing' } | { kind: 'stale' } | { kind: 'has-children' };

/**
 * Reads the list in two steps: the order (keys only, a page of them per query, since ordering
 * sorts every visible row), then the projects themselves a few at a time (they are large).
 */
export interface ListReader {
  /** The keys of one page of the projects the caller may view, in list order, after `cursor`. */
  visibleKeys(
    caller: Caller,
    filter: ListFilter,
    cursor: ListCursor | undefined,
    limit: number,
  ): Promise<ListCursor[]>;
  /** These projects, in the order given; one deleted since its key was read is left out. */
  projectsByUid(uids: string[]): Promise<Project[]>;
}

/** What the domain needs from storage; src/db/project-store.ts implements it with Prisma. */
export interface ProjectStore extends ListReader {
  /** The caller's memberships along the project's ancestor chain, in one query; undefined when the project does not exist. */
  membership(uid: string, principal: string): Promise<ChainMembership | undefined>;
  /**
   * The project without its member lists and the caller's memberships along its chain, in one
   * statement (a GET's one round trip); undefined when the project does not exist.
   */
  readCore(uid: string, principal: string): Promise<ProjectReadout<ProjectCore> | undefined>;
  /** The same with the member lists. */
  read(uid: string, principal: string): Promise<ProjectReadout<Project> | undefined>;

  // The writes, one method per operation, made once the domain has decided the caller may make
  // them (the store decides no rights). Each writes only when the stored revision is one of
  // `allowed` (If-Match; undefined: any), and says what it found instead as its outcome.

  /** A new project and its members; a taken slug or a missing parent is the outcome, not an error. */
  create(project: NewProject): Promise<WriteOutcome<Project>>;
  /**
   * Writes the base information and the parent as given (the domain has checked the hierarchy
   * rules); a move under the project itself or a descendant is refused in the same transaction
   * as the write, serialized with other moves.
   */
  updateBase(
    uid: string,
    update: ProjectBaseUpdate,
    allowed: AllowedRevisions,
  ): Promise<WriteOutcome<Project>>;
  /** Writes the settings and replaces the member lists. */
  updateSettings(
    uid: string,
    update: ProjectSettingsUpdate,
    allowed: AllowedRevisions,
  ): Promise<WriteOutcome<Project>>;
  /** Deletes the project (the domain has refused the root); a project with children is not deleted. */
  delete(uid: string, allowed: AllowedRevisions): Promise<DeleteOutcome>;
  /** Runs `work` with a reader whose every page comes from one database snapshot. */
  inSnapshot<T>(work: (reader: ListReader) => Promise<T>): Promise<T>;
}
