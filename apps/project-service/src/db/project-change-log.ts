import type { Project } from '../domain/records';
import type { Prisma } from '../generated/prisma/client';

/** A committed change of a project, as the store reports it to the change log. */
export type ProjectChange =
  | { type: 'project.created' | 'project.updated' | 'project.deleted'; project: Project }
  | { type: 'project.settings_updated'; project: Project; previous: Project };

/**
 * Records a change's event in the transaction of the change (src/events/project-events.ts builds
 * it). The store has one exactly when events are on.
 */
export type ProjectChangeLog = (
  transaction: Prisma.TransactionClient,
  change: ProjectChange,
) => Promise<void>;
