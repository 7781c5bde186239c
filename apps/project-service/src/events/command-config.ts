import type { Config } from '../config';
import type { SnapshotReader } from '../db/outbox';
import { projectsByUid, projectUidsAfter } from '../db/project-snapshot';
import { projectSnapshotOf } from '../wire/project-representations';

// What the event commands (src/events/*-command.ts, the same in both services) need of
// project-service alone: the events' source, and how the snapshot reads its resources.

/** The events' `source`, as main.ts gives it to the relay. */
export function eventSourceOf(config: Config): string {
  return config.publicUrl;
}

/**
 * Every project, as `project.snapshot` events: `data` is the project as GET /projects/{uid} answers,
 * with `settings` as GET /projects/{uid}/settings answers (src/events/event-types.ts).
 */
export function snapshotReaders(_config?: Config): SnapshotReader[] {
  return [
    {
      aggregate: 'projects',
      type: 'project.snapshot',
      idsAfter: projectUidsAfter,
      async read(transaction, uids) {
        const projects = await projectsByUid(transaction, uids);
        return new Map(projects.map((project) => [project.uid, projectSnapshotOf(project)]));
      },
    },
  ];
}
