import type { AccessLevel, ActionRecord, ActionType, Page } from './records';

/** A feed entry to record along a write, for the repository being written. */
export interface NewAction {
  actUserId: number;
  opType: ActionType;
  isPrivate: boolean;
  content: string;
}

/** A feed entry with the viewer's collaborator level on its repository ('none' for anonymous viewers). */
export interface FeedEntry {
  action: ActionRecord;
  viewerCollaboration: AccessLevel;
}

/** The activity feed. */
export interface ActionStore {
  /** Feed of the organization's repositories, newest first, with what the viewer needs to judge access. */
  listOrganizationFeed(
    orgId: number,
    filter: {
      includePrivate: boolean;
      from?: Date;
      to?: Date;
    },
    viewerId: number | undefined,
    offset: number,
    limit: number,
  ): Promise<Page<FeedEntry>>;
}
