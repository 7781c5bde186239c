import type { ProjectChange, ProjectChangeLog } from '../db/project-change-log';
import { eventRepresentations } from '../http/project-representations';
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
  return async (transaction, change) => {
    await recorder.record(transaction, {
      type: change.type,
      aggregate: 'projects',
      resourceId: change.project.uid,
      data: dataOf(change),
    });
  };
}
