import type { NewAction } from './action-store';
import type { IssueRecord, Page } from './records';

export interface IssueInsert {
  repoId: number;
  posterId: number;
  title: string;
  body: string;
  isPull: boolean;
  headBranch: string;
  baseBranch: string;
}
export interface IssueUpdate {
  title?: string;
  body?: string;
  isClosed?: boolean;
  closedAt?: Date | null;
}

/** Issues and pull requests (an issue flagged as a pull request). */
export interface IssueStore {
  /** Creates the issue under the repository's next index, with the feed entry describing it. */
  createIssue(issue: IssueInsert, action: (index: number) => NewAction): Promise<IssueRecord>;
  findIssue(repoId: number, index: number): Promise<IssueRecord | undefined>;
  listIssues(
    repoId: number,
    filter: {
      state: 'open' | 'closed' | 'all';
      kind: 'issues' | 'pulls' | 'all';
    },
    offset: number,
    limit: number,
  ): Promise<Page<IssueRecord>>;
  updateIssue(issue: IssueRecord, changes: IssueUpdate, action: NewAction | undefined): Promise<IssueRecord>;
}
