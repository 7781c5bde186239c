import { z } from 'zod';
import { ProjectBase, ProjectFull, ProjectSettings } from '../wire/schemas';

/** One type of change event: its subject's aggregate, what it means, and its `data`. */
export interface EventTypeDefinition {
  type: string;
  aggregate: string;
  summary: string;
  data: z.ZodType;
}

export const SettingsUpdatedData = ProjectSettings.extend({
  previous: ProjectSettings.describe('the settings as GET settings showed them before the write'),
}).openapi('ProjectSettingsUpdated');

/** A snapshot: the two representations a client reads, each exactly as its GET answers it. */
export const ProjectSnapshotData = ProjectBase.extend({
  settings: ProjectSettings.describe(
    'the settings as GET /projects/{uid}/settings answers them (their own created_at and updated_at)',
  ),
}).openapi('ProjectSnapshot');
export type ProjectSnapshotData = z.infer<typeof ProjectSnapshotData>;

/** Every event project-service publishes (the AsyncAPI document lists these). */
export const EVENT_TYPES: readonly EventTypeDefinition[] = [
  {
    type: 'project.created',
    aggregate: 'projects',
    summary:
      'A project was created; data is the POST /projects response (ProjectFull: its created_at and updated_at are the creation time).',
    data: ProjectFull,
  },
  {
    type: 'project.updated',
    aggregate: 'projects',
    summary:
      "A project's base information changed; data is the PUT /projects/{uid} response (ProjectBase: its updated_at is this change's).",
    data: ProjectBase,
  },
  {
    type: 'project.settings_updated',
    aggregate: 'projects',
    summary:
      "A project's settings changed; data is the PUT /projects/{uid}/settings response (ProjectSettings: its updated_at is this change's), with `previous`, the settings before (its updated_at the change before this one).",
    data: SettingsUpdatedData,
  },
  {
    type: 'project.deleted',
    aggregate: 'projects',
    summary:
      "A project was deleted; data is the project as GET /projects/{uid} showed it just before (ProjectBase: its updated_at is the base's last change).",
    data: ProjectBase,
  },
  {
    type: 'project.snapshot',
    aggregate: 'projects',
    summary:
      "The current state of a project, recorded by the snapshot command through the outbox: its `sequence` is the next after the last change it includes (a later change has a higher one), so consumers fold it like any event. data is the project as GET /projects/{uid} answers (ProjectBase, its updated_at the base's), with `settings` as GET /projects/{uid}/settings answers.",
    data: ProjectSnapshotData,
  },
];
