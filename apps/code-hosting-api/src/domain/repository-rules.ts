import { forbidden, locked, notFound } from '@repo/http-errors';
import { atLeast } from './access';
import { isSiteAdmin, type Caller } from './caller';
import type { AccessLevel, IssueRecord, RepositoryRecord } from './records';
import type { RequestedNumber } from './requested-number';
import type { Store } from './store';

/** Rules about a repository and its issues that several use cases apply: each is written here once. */

/** An archived repository refuses every write but being unarchived: Gitea's 423. */
export function assertNotArchived(repository: RepositoryRecord): void {
  if (repository.isArchived)
    throw locked(`repository ${repository.owner.name}/${repository.name} is archived`);
}

/** The repository's issue (or pull request) with that index; 404 when there is none. */
export async function existingIssue(
  store: Store,
  repository: RepositoryRecord,
  index: RequestedNumber,
): Promise<IssueRecord> {
  const issue = index.value === undefined ? undefined : await store.findIssue(repository.id, index.value);
  if (!issue)
    throw notFound(`issue ${index.text} does not exist in ${repository.owner.name}/${repository.name}`);
  return issue;
}

/**
 * Who may write to an issue (edit it, attach files to it), as Gitea's canUserWriteIssueAttachment:
 * its poster, a site administrator, or a writer of the repository (`level` is the caller's level on
 * it). Repository access has no per-unit levels here, so a writer writes issues and pull requests.
 */
export function assertMayWriteIssue(caller: Caller, issue: IssueRecord, level: AccessLevel): void {
  if (!mayWriteIssue(caller, issue.poster.id, level))
    throw forbidden('write permission on the issue is required');
}

/** assertMayWriteIssue's rule, on the issue's poster. */
function mayWriteIssue(caller: Caller, posterId: number, level: AccessLevel): boolean {
  const user = caller.user;
  return user !== undefined && (posterId === user.id || isSiteAdmin(caller) || atLeast(level, 'write'));
}
