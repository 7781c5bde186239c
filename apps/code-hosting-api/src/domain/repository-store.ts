import type { NewAction } from './action-store';
import type { AccessLevel, RepositoryRecord } from './records';
import type { WriteOutcome } from './write-outcome';

export interface RepositoryInsert {
  ownerId: number;
  name: string;
  description: string;
  website: string;
  isPrivate: boolean;
}
export interface RepositoryUpdate {
  name?: string;
  description?: string;
  website?: string;
  isPrivate?: boolean;
  isArchived?: boolean;
  archivedAt?: Date | null;
}

/** Repositories and their collaborators. */
export interface RepositoryStore {
  /** Creates the repository with the collaboration and feed entry the domain decided on. */
  createRepository(
    repository: RepositoryInsert,
    effects: { collaborator?: { accountId: number; permission: 'admin' }; action: NewAction },
  ): Promise<WriteOutcome<RepositoryRecord>>;
  findRepository(ownerName: string, name: string): Promise<RepositoryRecord | undefined>;
  findRepositoryById(id: number): Promise<RepositoryRecord | undefined>;
  repositoryNameTaken(ownerId: number, name: string): Promise<boolean>;
  /** Updates the repository; `feedPrivacy` sets the privacy of every feed entry it has. */
  updateRepository(
    id: number,
    changes: RepositoryUpdate,
    effects: { action?: NewAction; feedPrivacy?: boolean },
  ): Promise<WriteOutcome<RepositoryRecord>>;
  deleteRepository(id: number): Promise<void>;
  setCollaborator(repoId: number, accountId: number, permission: 'read' | 'write' | 'admin'): Promise<void>;
  collaboratorLevel(repoId: number, accountId: number): Promise<AccessLevel>;
}
