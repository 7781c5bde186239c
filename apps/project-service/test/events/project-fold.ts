import type { ReceivedEvent, TestApp } from '@repo/testing';
import { ProjectBase, ProjectSettings } from '../../src/wire/schemas';
import { admin } from '../project-fixtures';

// A consumer's index of projects, rebuilt from the stream alone, as an integrator would fold it:
// de-duplicated by event id, each project's events in `sequence` order.

/**
 * A project as a consumer's index holds it: its two representations, each as its GET answers it
 * (GET /projects/{uid}, GET /projects/{uid}/settings), each with its own updated_at.
 */
export interface ProjectState {
  base: Record<string, unknown>;
  settings: Record<string, unknown>;
}

export interface Fold {
  /** Each project's state after its last event; deleted projects are absent. */
  projects: Map<string, ProjectState>;
  /** Projects whose sequence numbers are not 1, 2, … without gap or repeat. */
  sequenceProblems: string[];
  /** Snapshot events whose data differs from the fold of the project's events numbered before it. */
  snapshotMismatches: { uid: string; sequence: number; folded: ProjectState; snapshot: unknown }[];
}

const BASE_FIELDS = Object.keys(ProjectBase.shape);
const SETTINGS_FIELDS = Object.keys(ProjectSettings.shape);

const pick = (data: Record<string, unknown>, fields: string[]) =>
  Object.fromEntries(fields.filter((field) => field in data).map((field) => [field, data[field]]));

/** A snapshot's data: the base as GET answers it, with `settings` as GET …/settings answers them. */
function stateOfSnapshot(data: Record<string, unknown>): ProjectState {
  const { settings, ...base } = data;
  return { base, settings: settings as Record<string, unknown> };
}

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
 * Folds project events: created gives the whole project (ProjectFull, both parts at their creation
 * time), snapshot both parts as their GETs answer; updated replaces the base, settings_updated the
 * settings (its `previous` ignored); deleted removes the project.
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
      const data = event['data'] as Record<string, unknown>;
      switch (event['type']) {
        case 'project.snapshot': {
          const snapshot = stateOfSnapshot(data);
          // A project made before events were on starts with its snapshot: nothing to compare.
          if (state !== undefined && JSON.stringify(sorted(state)) !== JSON.stringify(sorted(snapshot)))
            fold.snapshotMismatches.push({
              uid,
              sequence: Number(event['sequence']),
              folded: state,
              snapshot: data,
            });
          state = snapshot;
          break;
        }
        case 'project.created':
          state = { base: pick(data, BASE_FIELDS), settings: pick(data, SETTINGS_FIELDS) };
          break;
        case 'project.updated':
          // A project made before events were on, without a snapshot yet: its settings unknown.
          state = { settings: {}, ...state, base: data };
          break;
        case 'project.settings_updated': {
          const { previous: _previous, ...settings } = data;
          state = { base: {}, ...state, settings };
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
  const latest = new Map<string, { sequence: number; data: Record<string, unknown> }>();
  for (const { event } of distinctEvents(events)) {
    if (event['type'] !== 'project.snapshot') continue;
    const uid = String(event['subject']);
    const sequence = Number(event['sequence']);
    if ((latest.get(uid)?.sequence ?? 0) < sequence)
      latest.set(uid, { sequence, data: event['data'] as Record<string, unknown> });
  }
  return new Map([...latest].map(([uid, { data }]) => [uid, stateOfSnapshot(data)]));
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

/** Every project (GET /projects, as an admin), each as GET /projects/{uid} and GET …/settings show it. */
export async function currentProjects(service: TestApp): Promise<Map<string, ProjectState>> {
  const list = await service.request.get('/projects').set('Authorization', admin()).expect(200);
  const uids = (list.body as { projects: { uid: string }[] }).projects.map((project) => project.uid);
  const current = new Map<string, ProjectState>();
  for (const uid of uids) {
    const [base, settings] = await Promise.all([
      service.request.get(`/projects/${uid}`).set('Authorization', admin()).expect(200),
      service.request.get(`/projects/${uid}/settings`).set('Authorization', admin()).expect(200),
    ]);
    current.set(uid, {
      base: base.body as Record<string, unknown>,
      settings: settings.body as Record<string, unknown>,
    });
  }
  return current;
}
