import type { Project } from '../domain/records';
import { Prisma } from '../generated/prisma/client';
import type { ProjectChange } from './project-change-log';
import type { ProjectWithMembersRow } from './project-read';
import { projectOf } from './row-mappers';

// A project image: what a write's own statement records in the outbox (outboxInsert) instead of
// the event's data, so the write and its event stay one statement. It is the project's row as the
// statement returns it (PROJECT_COLUMNS and its members, to_json), with, for a settings write, the
// row before: {"project": row, "previous": row}. The relay renders it (src/events/project-events.ts)
// into the same data the API answered the write with, when it publishes.

/** The renderer's name in event_outbox.renderer. */
export const PROJECT_IMAGE_RENDERER = 'project-image';

/** The image of `r` (outboxInsert's alias of the changed row), and of the row `previous` when given. */
export function projectImage(previous?: Prisma.Sql): Prisma.Sql {
  return previous
    ? Prisma.sql`json_build_object('project', to_json(r), 'previous', (SELECT to_json(b) FROM ${previous} b))`
    : Prisma.sql`json_build_object('project', to_json(r))`;
}

/** The timestamps of a row (JSON has them as ISO 8601 text). */
const TIMESTAMPS = ['createdAt', 'updatedAt', 'settingsUpdatedAt'] as const;

function projectOfImage(value: unknown, name: string): Project {
  if (
    typeof value !== 'object' ||
    value === null ||
    !Array.isArray((value as { members?: unknown }).members)
  ) {
    throw new Error(`a project image without its ${name} row`);
  }
  const row = { ...value } as Record<string, unknown>;
  for (const field of TIMESTAMPS) {
    const time = new Date(String(row[field]));
    if (Number.isNaN(time.getTime()))
      throw new Error(`a project image with ${name}.${field} ${String(row[field])}`);
    row[field] = time;
  }
  return projectOf(row as unknown as ProjectWithMembersRow);
}

/** The change an event of `type` recorded, of its image's JSON text. */
export function projectChangeOfImage(type: string, text: string): ProjectChange {
  const image = JSON.parse(text) as { project?: unknown; previous?: unknown };
  const project = projectOfImage(image.project, 'project');
  switch (type) {
    case 'project.created':
    case 'project.updated':
    case 'project.deleted':
      return { type, project };
    case 'project.settings_updated':
      return { type, project, previous: projectOfImage(image.previous, 'previous') };
    default:
      throw new Error(`a project image of an event of type ${type}`);
  }
}
