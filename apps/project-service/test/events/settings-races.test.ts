import { admin, createProject } from '../project-fixtures';
import { waitForEventsOf, useWatchedEventsService } from './event-assertions';

// Settings writes racing on one project with events on: each `project.settings_updated` event's
// `previous` is exactly the settings the one before it left, its members those of exactly one
// request, and the last event shows what GET shows. On PostgreSQL the writes really overlap (the
// one-statement write is overtaken and tries again, or waits for the lock); on PGlite they queue.

const stream = useWatchedEventsService('settings races');
const { service } = stream;

const WRITES = 16;

type Settings = Record<string, unknown> & { writers: { username: string }[]; mission_statement: string };

describe.each([
  ['without If-Match', false],
  ['with If-Match *', true],
])('concurrent settings writes %s', (_name, star) => {
  it('chain: each event replaces what the one before left, and the last is what GET shows', async () => {
    const uid = (
      await createProject(service, { parent_uid: stream.root, writers: [{ username: 'race-first' }] })
    ).uid;
    const initial = await service.request
      .get(`/projects/${uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    const responses = await Promise.all(
      Array.from({ length: WRITES }, (_, index) => {
        const request = service.request.put(`/projects/${uid}/settings`).set('Authorization', admin());
        if (star) request.set('If-Match', '*');
        return request.send({
          writers: [{ username: `race-${index}-a` }, { username: `race-${index}-b` }],
          auditors: index % 2 === 0 ? [{ username: `race-${index}-audit` }] : [],
          mission_statement: `race ${index}`,
        });
      }),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(WRITES).fill(200));

    const events = await waitForEventsOf(stream.watch, uid, WRITES + 1);
    const settingsEvents = events
      .filter((received) => received.event['type'] === 'project.settings_updated')
      .sort((a, b) => Number(a.event['sequence']) - Number(b.event['sequence']));
    expect(settingsEvents.map((received) => received.event['sequence'])).toEqual(
      Array.from({ length: WRITES }, (_, index) => String(index + 2)),
    );
    let before = initial.body as Settings;
    const missions = new Set<string>();
    for (const received of settingsEvents) {
      const { previous, ...after } = received.event['data'] as Settings & { previous: Settings };
      expect(previous).toEqual(before);
      // One request's lists, not a mix of two.
      const index = Number(after.mission_statement.replace('race ', ''));
      expect(after.writers.map((writer) => writer.username)).toEqual([`race-${index}-a`, `race-${index}-b`]);
      const auditors = index % 2 === 0 ? [`race-${index}-audit`] : [];
      // An empty list is left out.
      expect(
        ((after['auditors'] ?? []) as { username: string }[]).map((auditor) => auditor.username),
      ).toEqual(auditors);
      missions.add(after.mission_statement);
      // Its response answered the same settings.
      expect(
        responses.find((response) => response.body.mission_statement === after.mission_statement)?.body,
      ).toEqual(after);
      before = after as Settings;
    }
    expect(missions.size).toBe(WRITES);
    const final = await service.request
      .get(`/projects/${uid}/settings`)
      .set('Authorization', admin())
      .expect(200);
    expect(final.body).toEqual(before);
  });
});
