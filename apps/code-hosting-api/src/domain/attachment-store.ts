import type { AttachmentRecord } from './records';

export interface AttachmentInsert {
  uuid: string;
  repoId: number;
  issueId: number;
  uploaderId: number;
  name: string;
  contentType: string;
  size: number;
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
  /** Removes the row; false when it was already gone. */
  deleteAttachment(id: number): Promise<boolean>;
  incrementDownloadCount(id: number): Promise<void>;
  /** Of these uuids, the ones that have a row (the sweep). */
  attachmentUuidsAmong(uuids: string[]): Promise<string[]>;
  /** Every row's uuid, in batches (the sweep). */
  allAttachmentUuids(): AsyncIterable<string>;
}
