import type { AccessLevel, AttachmentRecord, RepositoryAccessFacts, TeamRecord } from './records';

export interface AttachmentInsert {
  uuid: string;
  repoId: number;
  issueId: number;
  uploaderId: number;
  name: string;
  contentType: string;
  size: number;
}

/** The attachment a rename names by its path. */
export interface AttachmentPath {
  owner: string;
  repo: string;
  index: number;
  id: number;
}

/** Who renames, as the one-statement rename's guard needs it. */
export interface AttachmentWriter {
  userId: number;
  siteAdmin: boolean;
  publicOnly: boolean;
}

/** A rename the one statement made, with the facts its guard decided on (for the domain to decide again). */
export interface GuardedRename {
  attachment: AttachmentRecord;
  repository: RepositoryAccessFacts & { isArchived: boolean };
  /** The writer's teams in the organization that owns the repository. */
  memberTeams: TeamRecord[];
  collaboration: AccessLevel;
  posterId: number;
}

/** Issue attachments: rows only; their bytes are the attachment storage's. */
export interface AttachmentStore {
  /**
   * Inserts the row and moves the issue's updated_at in one transaction that runs
   * `commitObject` last: when it fails, the transaction rolls back and no row is left.
   */
  createAttachment(
    attachment: AttachmentInsert,
    commitObject: () => Promise<void>,
  ): Promise<AttachmentRecord>;
  findAttachment(id: number): Promise<AttachmentRecord | undefined>;
  findAttachmentByUuid(uuid: string): Promise<AttachmentRecord | undefined>;
  /** Renames the row; undefined when it is gone (deleted since it was read). */
  renameAttachment(id: number, name: string): Promise<AttachmentRecord | undefined>;
  /**
   * PATCH …/assets/{id} checked and made in one statement: renamed only when the writer's level on
   * the repository (repositoryLevelFrom's rule, in SQL) lets them write the issue and the
   * repository is not archived. Undefined when nothing was written (missing, refused, or no such
   * form, as with events on): the caller's full path then answers.
   */
  renameAttachmentGuarded(
    path: AttachmentPath,
    name: string,
    writer: AttachmentWriter,
  ): Promise<GuardedRename | undefined>;
  /** Removes the row; false when it was already gone. */
  deleteAttachment(id: number): Promise<boolean>;
  incrementDownloadCount(id: number): Promise<void>;
  /** Of these uuids, the ones that have a row (the sweep). */
  attachmentUuidsAmong(uuids: string[]): Promise<string[]>;
  /** Every row's uuid, in batches (the sweep). */
  allAttachmentUuids(): AsyncIterable<string>;
}
