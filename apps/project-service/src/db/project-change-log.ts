import type { Project } from '../domain/records';
import type { Prisma } from '../generated/prisma/client';
import type { PlannedEvent } from './outbox';

/** A committed change of a project, as the store reports it to the change log. */
export type ProjectChange =
  | { type: 'project.created' | 'project.updated' | 'project.deleted'; project: Project }
  | { type: 'project.settings_updated'; project: Project; previous: Project };

/**
 * The change events of the store's writes (src/events/project-events.ts). The store has one exactly
 * when events are on. The common writes record their event in their own statement (plan(), the
 * statement's outboxInsert, recorded()): an image of the project that the relay renders when it
 * publishes. The rarer paths, already transactions of several statements, record the event's data
 * as it is published (record()).
 */
export interface ProjectChangeLog {
  /** Records a change's event in the transaction of the change. */
  record(transaction: Prisma.TransactionClient, change: ProjectChange): Promise<void>;
  /** An event of `type` for the change's statement to record, its image a ProjectImage (project-image.ts). */
  plan(type: ProjectChange['type']): PlannedEvent;
  /** The statement recorded `event`: the request waits for it (X-Sync). */
  recorded(event: PlannedEvent): void;
}
