import type { OutboxRow } from '../db/outbox';
import type { ProjectChange, ProjectChangeLog } from '../db/project-change-log';
import { PROJECT_IMAGE_RENDERER, projectChangeOfImage } from '../db/project-image';
import { eventRepresentations } from '../wire/project-representations';
import type { EventRecorder } from './service-events';

/** `data` of a change's event: the representation the JSON API answered the write with. */
function dataOf(change: ProjectChange): unknown {
  switch (change.type) {
    case 'project.created':
      return eventRepresentations.full(change.project);
    case 'project.updated':
    case 'project.deleted':
      return eventRepresentations.base(change.project);
    case 'project.settings_updated':
      return {
        ...eventRepresentations.settings(change.project),
        previous: eventRepresentations.settings(change.previous),
      };
  }
}

/** The store's change log: each change recorded as a `projects.<uid>.<action>` event. */
export function projectChangeLog(recorder: EventRecorder): ProjectChangeLog {
  return {
    async record(transaction, change) {
      await recorder.record(transaction, {
        type: change.type,
        aggregate: 'projects',
        resourceId: change.project.uid,
        data: dataOf(change),
      });
    },
    plan: (type) => recorder.plan(type, 'projects', PROJECT_IMAGE_RENDERER),
    recorded: (event) => recorder.recorded(event),
  };
}

/** The data of an event its write's statement recorded as a project image, as JSON text. */
export function renderProjectImage(row: OutboxRow): string {
  return JSON.stringify(dataOf(projectChangeOfImage(row.type, row.data)));
}
