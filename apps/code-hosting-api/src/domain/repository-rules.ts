import { locked } from '@repo/http-errors';
import type { RepositoryRecord } from './records';

/** Rules about a repository and its issues that several use cases apply: each is written here once. */

/** An archived repository refuses every write but being unarchived: Gitea's 423. */
export function assertNotArchived(repository: RepositoryRecord): void {
  if (repository.isArchived)
    throw locked(`repository ${repository.owner.name}/${repository.name} is archived`);
}
