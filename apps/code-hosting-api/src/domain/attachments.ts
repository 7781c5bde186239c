import { notFound } from '@repo/http-errors';
import { repositoryLevel } from './access';
import { assertDisplayNameAllowed } from './attachment-types';
import { requireUser, type Caller } from './caller';
import type { AttachmentRecord, IssueRecord, RepositoryRecord } from './records';
import { repositoryService } from './repositories';
import { assertMayWriteIssue, assertNotArchived, existingIssue } from './repository-rules';
import type { RequestedNumber } from './requested-number';
import type { Store } from './store';

/**
 * What the use cases need of the attachment storage (src/storage's Storage has these and more):
 * the domain decides when an object becomes visible or goes, the storage does it.
 */
export interface AttachmentObjects {
  /** Makes a written object readable; called inside the row's transaction. */
  commit(key: string): Promise<void>;
  /** Removes a written object, committed or not. */
  discard(key: string): Promise<void>;
  /** Removes a committed object. */
  delete(key: string): Promise<void>;
}

export interface AttachmentRules {
  /** Lowercase `.ext`, `type/subtype`, `type/*`, `*\/*` entries (ATTACHMENT_ALLOWED_TYPES). */
  allowedTypes: readonly string[];
  /** The registered MIME type of an extension (`image/png` for `.png`), for display names. */
  typeOfExtension: (extension: string) => string | undefined;
}

/** An issue the caller may attach files to, checked before a byte of the upload is read. */
export interface UploadTarget {
  repository: RepositoryRecord;
  issue: IssueRecord;
  uploaderId: number;
  /** The `name` query, when given: the display name instead of the file's own. */
  displayName?: string;
}

/** An upload the storage has written but not committed. */
export interface WrittenObject {
  key: string;
  size: number;
  fileName: string;
  contentType: string;
}

export function attachmentService(store: Store, rules: AttachmentRules, objects: AttachmentObjects) {
  const { readable } = repositoryService(store);

  /**
   * The issue of the path, in Gitea's order: repository readable (404) → signed in (401) →
   * not archived (423) → the issue exists (404) → the caller may write its attachments (403).
   */
  async function issueOf(
    caller: Caller,
    owner: string,
    repo: string,
    index: RequestedNumber,
    mode: 'read' | 'write',
  ): Promise<{ repository: RepositoryRecord; issue: IssueRecord }> {
    const { repository, level } = await readable(caller, owner, repo);
    if (mode === 'write') {
      requireUser(caller);
      assertNotArchived(repository);
    }
    const issue = await existingIssue(store, repository, index);
    if (mode === 'write') assertMayWriteIssue(caller, issue, level);
    return { repository, issue };
  }

  /** The issue's attachment with that id: one of another issue, another repository or no issue is 404. */
  const missingAttachment = (issue: IssueRecord, id: RequestedNumber) =>
    notFound(`attachment ${id.text} does not exist on issue ${issue.index}`);

  async function attachmentOf(issue: IssueRecord, id: RequestedNumber): Promise<AttachmentRecord> {
    // The issue was read with its attachments: no statement of its own.
    const attachment = id.value === undefined ? undefined : issue.attachments.find((a) => a.id === id.value);
    if (!attachment || attachment.issueId !== issue.id || attachment.repoId !== issue.repoId)
      throw missingAttachment(issue, id);
    return attachment;
  }

  return {
    /** The issue when the caller may write its attachments (upload, rename, delete). */
    writableIssue: (caller: Caller, owner: string, repo: string, index: RequestedNumber) =>
      issueOf(caller, owner, repo, index, 'write'),

    /** GET …/issues/{index}/assets. */
    async list(caller: Caller, owner: string, repo: string, index: RequestedNumber) {
      const { repository, issue } = await issueOf(caller, owner, repo, index, 'read');
      return { attachments: issue.attachments, repository };
    },

    /** GET …/issues/{index}/assets/{id}. */
    async get(caller: Caller, owner: string, repo: string, index: RequestedNumber, id: RequestedNumber) {
      const { issue } = await issueOf(caller, owner, repo, index, 'read');
      return attachmentOf(issue, id);
    },

    /**
     * POST …/issues/{index}/assets, before the body: everything that can be refused without the
     * file (access, archive, issue, permission, and the `name` query's extension).
     */
    async uploadTarget(
      caller: Caller,
      owner: string,
      repo: string,
      index: RequestedNumber,
      displayName: string | undefined,
    ): Promise<UploadTarget> {
      const { repository, issue } = await issueOf(caller, owner, repo, index, 'write');
      const name = displayName === '' ? undefined : displayName;
      if (name !== undefined) assertDisplayNameAllowed(rules.allowedTypes, name, rules.typeOfExtension);
      return { repository, issue, uploaderId: requireUser(caller).id, displayName: name };
    },

    /**
     * POST …/issues/{index}/assets, after the body: the row and the object together. The row is
     * inserted first and the object committed inside its transaction; on any failure the object
     * is discarded, so neither outlives the other.
     */
    async recordUpload(target: UploadTarget, written: WrittenObject): Promise<AttachmentRecord> {
      try {
        return await store.createAttachment(
          {
            uuid: written.key,
            repoId: target.repository.id,
            issueId: target.issue.id,
            uploaderId: target.uploaderId,
            name: target.displayName ?? written.fileName,
            contentType: written.contentType,
            size: written.size,
          },
          () => objects.commit(written.key),
        );
      } catch (error) {
        // Whatever discard cannot remove now, the sweep removes later: the cause matters more.
        await objects.discard(written.key).catch(() => undefined);
        throw error;
      }
    },

    /** PATCH …/assets/{id}: a non-empty name replaces the current one; Gitea answers 201. */
    async rename(
      caller: Caller,
      owner: string,
      repo: string,
      index: RequestedNumber,
      id: RequestedNumber,
      name: string | undefined,
    ): Promise<AttachmentRecord> {
      const { issue } = await issueOf(caller, owner, repo, index, 'write');
      const attachment = await attachmentOf(issue, id);
      if (name === undefined || name === '') return attachment;
      assertDisplayNameAllowed(rules.allowedTypes, name, rules.typeOfExtension);
      // Deleted since it was read: as if it had been gone then.
      const renamed = await store.renameAttachment(attachment.id, name);
      if (!renamed) throw missingAttachment(issue, id);
      return renamed;
    },

    /** DELETE …/assets/{id}: the row, then the object. */
    async remove(
      caller: Caller,
      owner: string,
      repo: string,
      index: RequestedNumber,
      id: RequestedNumber,
    ): Promise<void> {
      const { issue } = await issueOf(caller, owner, repo, index, 'write');
      const attachment = await attachmentOf(issue, id);
      // A concurrent delete took the row since it was read: this one deleted nothing, and answers
      // as a delete made after that one would (404, and no event).
      if (!(await store.deleteAttachment(attachment.id))) throw missingAttachment(issue, id);
      // The row is gone, so the attachment is; an object left behind is an orphan the sweep removes.
      await objects.delete(attachment.uuid).catch(() => undefined);
    },

    /** GET /attachments/{uuid}: whoever can read the repository; anyone else gets 404. */
    async forDownload(caller: Caller, uuid: string): Promise<AttachmentRecord> {
      const attachment = await store.findAttachmentByUuid(uuid);
      const repository = attachment && (await store.findRepositoryById(attachment.repoId));
      if (!attachment || !repository || (await repositoryLevel(store, caller, repository)) === 'none')
        throw notFound('attachment does not exist');
      return attachment;
    },

    /** One served download (not a refusal, not a resumed range). */
    countDownload(attachment: AttachmentRecord): Promise<void> {
      return store.incrementDownloadCount(attachment.id);
    },
  };
}

export type AttachmentService = ReturnType<typeof attachmentService>;
