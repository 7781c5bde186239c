import type { ReceivedEvent, TestApp } from '@repo/testing';
import { admin } from '../project-fixtures';

// A consumer's index of projects, rebuilt from the stream alone, as an integrator would fold it:
// de-duplicated by event id, each project's events in `sequence` order.

export type ProjectState = Record<string, unknown>;

export interface Fold {
  /** Each project's state (ProjectFull) after its last event; deleted projects are absent. */
  projects: Map<string, ProjectState>;
  /** Projects whose sequence numbers are not 1, 2, … without gap or repeat. */
  sequenceProblems: string[];
  /** Snapshot events whose data differs from the fold of the project's events numbered before it. */
  snapshotMismatches: { uid: string; sequence: number; folded: ProjectState; snapshot: unknown }[];
}

const later = (a: unknown, b: unknown) => (String(a) > String(b) ? a : b);

/** The events of the stream, each id once (a replay or a relay retry may deliver one again). */
export function distinctEvents(events: readonly ReceivedEvent[]): ReceivedEvent[] {
  const seen = new Set<string>();
  return events.filter((received) => {
    const id = String(received.event['id']);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * Folds project events: created and snapshot give the whole project (ProjectFull); updated gives
 * its base, settings_updated its settings (and `previous`, ignored): merged over the state, the
 * full representation's updated_at being the later of the two parts'; deleted removes it.
 */
export function foldProjects(events: readonly ReceivedEvent[]): Fold {
  const byProject = new Map<string, Record<string, unknown>[]>();
  for (const { event } of distinctEvents(events)) {
    const uid = String(event['subject']);
    byProject.set(uid, [...(byProject.get(uid) ?? []), event]);
  }
  const fold: Fold = { projects: new Map(), sequenceProblems: [], snapshotMismatches: [] };
  for (const [uid, projectEvents] of byProject) {
    projectEvents.sort((a, b) => Number(a['sequence']) - Number(b['sequence']));
    const sequences = projectEvents.map((event) => Number(event['sequence']));
    if (sequences.some((sequence, index) => sequence !== index + 1))
      fold.sequenceProblems.push(`${uid}: ${sequences.join(',')}`);
    let state: ProjectState | undefined;
    for (const event of projectEvents) {
      const data = event['data'] as ProjectState;
      switch (event['type']) {
        case 'project.snapshot':
          // A project made before events were on starts with its snapshot: nothing to compare.
          if (state !== undefined && JSON.stringify(sorted(state)) !== JSON.stringify(sorted(data)))
            fold.snapshotMismatches.push({
              uid,
              sequence: Number(event['sequence']),
              folded: state,
              snapshot: data,
            });
          state = data;
          break;
        case 'project.created':
          state = data;
          break;
        case 'project.updated':
          state = { ...state, ...data, updated_at: later(state?.['updated_at'], data['updated_at']) };
          break;
        case 'project.settings_updated': {
          const { previous: _previous, ...settings } = data;
          state = { ...state, ...settings, updated_at: later(state?.['updated_at'], settings['updated_at']) };
          break;
        }
        case 'project.deleted':
          state = undefined;
          break;
        default:
          throw new Error(`unknown event type ${String(event['type'])}`);
      }
    }
    if (state !== undefined) fold.projects.set(uid, state);
  }
  return fold;
}

/** The latest snapshot of each project: what a consumer rebuilding from snapshot events alone has. */
export function snapshotsOnly(events: readonly ReceivedEvent[]): Map<string, ProjectState> {
  const latest = new Map<string, { sequence: number; data: ProjectState }>();
  for (const { event } of distinctEvents(events)) {
    if (event['type'] !== 'project.snapshot') continue;
    const uid = String(event['subject']);
    const sequence = Number(event['sequence']);
    if ((latest.get(uid)?.sequence ?? 0) < sequence)
      latest.set(uid, { sequence, data: event['data'] as ProjectState });
  }
  return new Map([...latest].map(([uid, { data }]) => [uid, data]));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, entry]) => [key, sorted(entry)]),
  );
}

/** Every project as GET /projects shows it to an admin (ProjectFull), by uid. */
export async function currentProjects(service: TestApp): Promise<Map<string, ProjectState>> {
  const response = await service.request.get('/projects').set('Authorization', admin()).expect(200);
  const projects = (response.body as { projects: ProjectState[] }).projects;
  return new Map(projects.map((project) => [String(project['uid']), project]));
}
