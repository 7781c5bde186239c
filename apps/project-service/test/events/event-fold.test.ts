import fc from 'fast-check';
import type { EventWatch } from '@repo/testing';
import { admin, createProject, uniqueSlug } from '../project-fixtures';
import { useWatchedEventsService } from './event-assertions';
import { CATEGORIES, FUNDING_MODELS, ProjectBase, ProjectSettings, STAGES } from '../../src/wire/schemas';

// The property of the change events (docs/events.md): any sequence of writes through
// HTTP, folded over the event stream (created → the project; updated → its base fields;
// settings_updated → its settings; deleted → gone), gives exactly what the API's GETs return, and
// each project's events are numbered 1, 2, 3, … without a gap.

const stream = useWatchedEventsService('event fold');
const { service } = stream;

type Json = Record<string, unknown>;

const BASE_KEYS = Object.keys(ProjectBase.shape);
const SETTINGS_KEYS = Object.keys(ProjectSettings.shape);

// ---- Generated writes (targets are indexes into the projects alive when the write runs) ----

const text = (maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'abc XYZ-äé☃<&>'.split('')), maxLength });
const user = fc.record({
  username: fc.constantFrom('ann', 'bob', 'cyd', 'dee'),
  name: text(6),
  email: fc.constantFrom('', 'x@example.com'),
});
const members = fc.array(user, { maxLength: 3 });

const baseChanges = fc.record({
  name: text(12).filter((name) => name.length > 0),
  description: text(20),
  public: fc.boolean(),
  category: fc.constantFrom('', ...CATEGORIES),
  stage: fc.constantFrom('', ...STAGES),
  funding_model: fc.subarray([...FUNDING_MODELS]),
  website_url: fc.constantFrom('', 'https://example.com/w?x=1&y=2'),
  newSlug: fc.boolean(),
});

const settingsChanges = fc.record({
  mission_statement: text(20),
  announcement_date: fc.constantFrom('', '2024-02-29', '1999-12-31'),
  writers: members,
  auditors: members,
  meeting_coordinators: members,
});

const target = fc.nat({ max: 50 });
const command = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    /** undefined: under the run's own top project. */
    parent: fc.option(target, { nil: undefined }),
    settings: settingsChanges,
  }),
  fc.record({
    kind: fc.constant('update base' as const),
    target,
    /** A move: under this other project (may be a descendant: then the 400 of a cycle). */
    moveTo: fc.option(target, { nil: undefined }),
    changes: baseChanges,
    stale: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('update settings' as const),
    target,
    changes: settingsChanges,
    stale: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('delete' as const), target, stale: fc.boolean() }),
);

// ---- The run: what the test knows of the tree from the responses (to choose targets and statuses) ----

interface Known {
  uid: string;
  slug: string;
  parent: string;
  baseEtag: string;
  settingsEtag: string;
}

function isDescendant(projects: Map<string, Known>, candidate: string, ancestor: string): boolean {
  for (let at: string | undefined = candidate; at !== undefined; at = projects.get(at)?.parent) {
    if (at === ancestor) return true;
  }
  return false;
}

const pick = (record: Json, keys: string[]) => Object.fromEntries(keys.map((key) => [key, record[key]]));

type Command = typeof command extends fc.Arbitrary<infer T> ? T : never;

/** Runs the writes under a fresh top project; returns every uid created and how many writes succeeded. */
async function runWrites(commands: Command[]) {
  const top = await createProject(service, { parent_uid: stream.root });
  const alive = new Map<string, Known>([
    [top.uid, { uid: top.uid, slug: top.slug, parent: stream.root, baseEtag: '"b1"', settingsEtag: '"s1"' }],
  ]);
  const created = [top.uid];
  /** The run's top project: every other one is below it (so it is deleted last, then replaced). */
  let topUid = top.uid;
  let succeeded = 1;
  const nth = (index: number) => [...alive.values()][index % alive.size] as Known;

  for (const cmd of commands) {
    const auth = admin();
    switch (cmd.kind) {
      case 'create': {
        const parent = cmd.parent === undefined ? topUid : nth(cmd.parent).uid;
        const slug = uniqueSlug('fold');
        const response = await service.request
          .post('/projects')
          .set('Authorization', auth)
          .send({ slug, name: 'Folded', description: '', parent_uid: parent, ...cmd.settings });
        expect(response.status).toBe(201);
        const uid = (response.body as { uid: string }).uid;
        alive.set(uid, { uid, slug, parent, baseEtag: '"b1"', settingsEtag: '"s1"' });
        created.push(uid);
        succeeded += 1;
        break;
      }
      case 'update base': {
        const project = nth(cmd.target);
        const moveTo = cmd.moveTo === undefined ? undefined : nth(cmd.moveTo).uid;
        const parent = moveTo ?? project.parent;
        const { newSlug, ...changes } = cmd.changes;
        const slug = newSlug ? uniqueSlug('fold') : project.slug;
        const response = await service.request
          .put(`/projects/${project.uid}`)
          .set('Authorization', auth)
          .set('If-Match', cmd.stale ? '"b0"' : project.baseEtag)
          .send({ slug, parent_uid: parent, ...changes });
        if (parent !== project.parent && isDescendant(alive, parent, project.uid)) {
          // The cycle is refused whatever If-Match says.
          expect(response.status).toBe(400);
        } else if (cmd.stale) {
          expect(response.status).toBe(412);
        } else {
          expect(response.status).toBe(200);
          Object.assign(project, { slug, parent, baseEtag: response.headers['etag'] as string });
          succeeded += 1;
        }
        break;
      }
      case 'update settings': {
        const project = nth(cmd.target);
        const response = await service.request
          .put(`/projects/${project.uid}/settings`)
          .set('Authorization', auth)
          .set('If-Match', cmd.stale ? '"s0"' : project.settingsEtag)
          .send(cmd.changes);
        if (cmd.stale) {
          expect(response.status).toBe(412);
        } else {
          expect(response.status).toBe(200);
          project.settingsEtag = response.headers['etag'] as string;
          succeeded += 1;
        }
        break;
      }
      case 'delete': {
        // A leaf: the chosen project if it has no children, else its deepest first child.
        let project = nth(cmd.target);
        for (;;) {
          const child = [...alive.values()].find((other) => other.parent === project.uid);
          if (!child) break;
          project = child;
        }
        const response = await service.request
          .delete(`/projects/${project.uid}`)
          .set('Authorization', auth)
          .set('If-Match', cmd.stale ? '"b0"' : project.baseEtag);
        if (cmd.stale) {
          expect(response.status).toBe(412);
        } else {
          expect(response.status).toBe(204);
          alive.delete(project.uid);
          succeeded += 1;
          // The top project gone: later writes go under a new one (its own create event).
          if (alive.size === 0) {
            const next = await createProject(service, { parent_uid: stream.root });
            alive.set(next.uid, {
              uid: next.uid,
              slug: next.slug,
              parent: stream.root,
              baseEtag: '"b1"',
              settingsEtag: '"s1"',
            });
            created.push(next.uid);
            topUid = next.uid;
            succeeded += 1;
          }
        }
        break;
      }
    }
  }
  return { created, succeeded };
}

// ---- The fold ----

/**
 * A project as the events say: its base and its settings representations (each with its own
 * updated_at, as GET shows them), or neither once deleted.
 */
interface Folded {
  state: { base: Json; settings: Json } | undefined;
  lastSequence: number;
}

/** Folds the whole stream, checking each project's sequence and that each event fits what came before. */
function fold(events: EventWatch['events']): Map<string, Folded> {
  const projects = new Map<string, Folded>();
  for (const received of events) {
    const {
      subject: uid,
      type,
      sequence,
      data,
    } = received.event as {
      subject: string;
      type: string;
      sequence: string;
      data: Json;
    };
    const folded = projects.get(uid) ?? { state: undefined, lastSequence: 0 };
    const where = `event #${received.streamSequence} (${type} of ${uid}, sequence ${sequence})`;
    expect({ where, sequence }).toEqual({ where, sequence: String(folded.lastSequence + 1) });
    folded.lastSequence += 1;
    const state = folded.state;
    expect({ where, known: state !== undefined }).toEqual({ where, known: type !== 'project.created' });
    switch (type) {
      case 'project.created':
        folded.state = { base: pick(data, BASE_KEYS), settings: pick(data, SETTINGS_KEYS) };
        break;
      case 'project.updated':
        folded.state = { base: pick(data, BASE_KEYS), settings: state?.settings ?? {} };
        break;
      case 'project.settings_updated': {
        const { previous, ...settings } = data;
        // `previous` is the settings the fold had before this event.
        expect({ where, previous }).toEqual({ where, previous: state?.settings });
        folded.state = { base: state?.base ?? {}, settings: pick(settings, SETTINGS_KEYS) };
        break;
      }
      case 'project.deleted':
        // The project as GET showed it just before: what the fold had.
        expect({ where, data }).toEqual({ where, data: state?.base });
        folded.state = undefined;
        break;
      default:
        throw new Error(`${where}: unexpected type`);
    }
    projects.set(uid, folded);
  }
  return projects;
}

async function expectApiShows(uid: string, folded: Folded | undefined): Promise<void> {
  const base = await service.request.get(`/projects/${uid}`).set('Authorization', admin());
  const settings = await service.request.get(`/projects/${uid}/settings`).set('Authorization', admin());
  const state = folded?.state;
  if (state === undefined) {
    expect({ uid, base: base.status, settings: settings.status }).toEqual({ uid, base: 404, settings: 404 });
    return;
  }
  expect({ uid, base: base.body as unknown }).toEqual({ uid, base: state.base });
  expect({ uid, settings: settings.body as unknown }).toEqual({ uid, settings: state.settings });
}

describe('the event stream folded', () => {
  it('gives the state the GETs show, for any sequence of writes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 12 }), async (commands) => {
        // What earlier runs published (a failed run's last events included) has arrived.
        const before = (await stream.watch.settled(200)).length;
        const { created, succeeded } = await runWrites(commands);
        // Exactly one event per successful write, no more.
        await stream.watch.waitFor(before + succeeded);
        const folded = fold(await stream.watch.settled(200));
        expect(stream.watch.events).toHaveLength(before + succeeded);
        // Every project of this run's events (whatever uid they name) and every project it created;
        // the projects of earlier runs were compared in their run, and no write since touched them.
        const touched = stream.watch.events
          .slice(before)
          .map((received) => received.event['subject'] as string);
        const uids = [...new Set([...touched, ...created])];
        expect(uids.filter((uid) => !folded.has(uid))).toEqual([]);
        for (let start = 0; start < uids.length; start += 8) {
          await Promise.all(uids.slice(start, start + 8).map((uid) => expectApiShows(uid, folded.get(uid))));
        }
      }),
      { numRuns: 15 },
    );
  }, 120_000); // 15 runs of up to 12 writes: ~30 s alone, more beside other files
});
