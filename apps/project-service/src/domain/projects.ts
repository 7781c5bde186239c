import { badRequest, conflict, forbidden, preconditionFailed } from '@repo/http-errors';
import { accessOf, projectNotFound, requireRight, type ProjectAccess } from './access';
import type { Caller } from './caller';
import type { AllowedRevisions } from './revisions';
import type { ListReader, ProjectStore, WriteOutcome } from './project-store';
import type {
  ListCursor,
  ListFilter,
  NewProject,
  Project,
  ProjectBaseUpdate,
  ProjectCore,
  ProjectSettingsUpdate,
} from './records';

export const INVALID_PARENT = 'invalid parent project';

/** The use cases of the seven operations, over plain data. */
export function projectService(store: ProjectStore) {
  async function accessTo(caller: Caller, uid: string): Promise<ProjectAccess | undefined> {
    const membership = await store.membership(uid, caller.principal);
    return membership && accessOf(caller, membership);
  }

  /**
   * The hierarchy rules of a re-parenting: the root stays the root (the only project without a
   * parent, and it keeps none), no cycles, the new parent exists and is writable.
   */
  async function checkNewParent(
    caller: Caller,
    current: Pick<ProjectCore, 'parentUid'>,
    parentUid: string | undefined,
  ): Promise<void> {
    if (current.parentUid === undefined) {
      if (parentUid !== undefined) throw badRequest('the root project cannot be moved');
      return;
    }
    // "" or absent: unset, which only the root may be.
    if (parentUid === undefined) throw badRequest('parent_uid: is required');
    if (parentUid === current.parentUid) return;
    requireParentRight(await accessTo(caller, parentUid), 'move a project under this parent');
    // The cycle check itself happens in the store, atomically with the write.
  }

  return {
    /** The base representation needs no member lists: one read of the row and the caller's rights. */
    async getBase(caller: Caller, uid: string): Promise<ProjectCore> {
      const readout = await store.readCore(uid, caller.principal);
      if (!readout) throw projectNotFound();
      requireRight(accessOf(caller, readout.membership), 'view', 'view this project');
      return readout.project;
    },

    async getSettings(caller: Caller, uid: string): Promise<Project> {
      const readout = await store.read(uid, caller.principal);
      if (!readout) throw projectNotFound();
      requireRight(accessOf(caller, readout.membership), 'audit', "view this project's settings");
      return readout.project;
    },

    // Each write is one path: the domain reads the caller's rights (with the project, where the
    // write needs it: one statement, as for a GET), decides with accessOf(), then the store writes,
    // conditioned on the If-Match revision, and says what it found (stale, missing, a constraint).

    async create(caller: Caller, project: NewProject): Promise<Project> {
      requireParentRight(await accessTo(caller, project.parentUid), 'create a project under this parent');
      return written(await store.create(project));
    },

    async updateBase(
      caller: Caller,
      uid: string,
      update: ProjectBaseUpdate,
      allowed: AllowedRevisions,
    ): Promise<ProjectCore> {
      const readout = await store.readCore(uid, caller.principal);
      if (!readout) throw projectNotFound();
      requireRight(accessOf(caller, readout.membership), 'write', 'update this project');
      await checkNewParent(caller, readout.project, update.parentUid);
      return written(await store.updateBase(uid, update, allowed));
    },

    async delete(caller: Caller, uid: string, allowed: AllowedRevisions): Promise<void> {
      const readout = await store.readCore(uid, caller.principal);
      if (!readout) throw projectNotFound();
      requireRight(accessOf(caller, readout.membership), 'writeParent', 'delete this project');
      if (readout.project.parentUid === undefined) throw badRequest('the root project cannot be deleted');
      const outcome = await store.delete(uid, allowed);
      switch (outcome.kind) {
        case 'deleted':
          return;
        case 'missing':
          throw projectNotFound();
        case 'stale':
          throw staleRevision();
        case 'has-children':
          throw conflict('the project still has child projects');
      }
    },

    async updateSettings(
      caller: Caller,
      uid: string,
      update: ProjectSettingsUpdate,
      allowed: AllowedRevisions,
    ): Promise<Project> {
      requireRight(await accessTo(caller, uid), 'write', "update this project's settings");
      return written(await store.updateSettings(uid, update, allowed));
    },

    /** Batches of `batchSize` projects, every one the caller may view, in list order. */
    listVisible(caller: Caller, filter: ListFilter, batchSize: number): AsyncGenerator<Project[]> {
      return visibleBatches(store, caller, filter, batchSize);
    },

    /**
     * Runs `consume` with every project the caller may view as a list it can read as often as it
     * needs, each pass seeing the same rows (one database snapshot).
     */
    withListSnapshot<T>(
      caller: Caller,
      filter: ListFilter,
      batchSize: number,
      consume: (list: { batches(): AsyncGenerator<Project[]> }) => Promise<T>,
    ): Promise<T> {
      return store.inSnapshot((reader) =>
        consume({ batches: () => visibleBatches(reader, caller, filter, batchSize) }),
      );
    },

    async listPage(
      caller: Caller,
      filter: ListFilter,
      after: ListCursor | undefined,
      pageSize: number,
    ): Promise<{ projects: Project[]; next: ListCursor | undefined }> {
      // One extra key tells whether another page follows, without a count query.
      const keys = await store.visibleKeys(caller, filter, after, pageSize + 1);
      const page = keys.slice(0, pageSize);
      const projects = await store.projectsByUid(page.map((key) => key.uid));
      const last = page.at(-1);
      return { projects, next: keys.length > pageSize && last ? last : undefined };
    },
  };
}

export type ProjectService = ReturnType<typeof projectService>;

/**
 * Keys read per ordering query while streaming: the query sorts every visible row, so it runs once
 * per 500 keys (a few tens of kilobytes) rather than once per batch of projects.
 */
const KEYS_PER_QUERY = 500;

async function* visibleBatches(
  reader: ListReader,
  caller: Caller,
  filter: ListFilter,
  batchSize: number,
): AsyncGenerator<Project[]> {
  let cursor: ListCursor | undefined;
  for (;;) {
    const keys = await reader.visibleKeys(caller, filter, cursor, KEYS_PER_QUERY);
    for (let start = 0; start < keys.length; start += batchSize) {
      const uids = keys.slice(start, start + batchSize).map((key) => key.uid);
      const batch = await reader.projectsByUid(uids);
      if (batch.length > 0) yield batch;
    }
    const last = keys.at(-1);
    if (keys.length < KEYS_PER_QUERY || !last) return;
    cursor = last;
  }
}

/**
 * The parent of a create or a move, by the caller's access to it (undefined: no such project).
 * One the caller may not view does not exist for them, as for a read: 400 `invalid parent
 * project` for both, so the answer does not reveal a hidden project. One they view but may not
 * write: 403.
 */
function requireParentRight(access: ProjectAccess | undefined, action: string): void {
  if (!access?.view) throw badRequest(INVALID_PARENT);
  if (!access.write) throw forbidden(`not allowed to ${action}`);
}

function staleRevision() {
  return preconditionFailed('the resource was changed: If-Match does not match the current ETag');
}

function written<T>(outcome: WriteOutcome<T>): T {
  switch (outcome.kind) {
    case 'written':
      return outcome.value;
    case 'missing':
      throw projectNotFound();
    case 'stale':
      throw staleRevision();
    case 'slug-taken':
      throw conflict('slug: a project with this slug already exists');
    case 'parent-missing':
      throw badRequest(INVALID_PARENT);
    case 'cycle':
      throw badRequest('parent_uid: a project cannot be moved under itself or its descendants');
  }
}
