import type { History, Operation, StreamEvent } from './history';
import { brief, firstDifference, violation, type Violation } from './violations';

// The change events against the writes: exactly one per acknowledged write, with the write's type,
// resource and data (its answer); none for a refused write; at most one for a write whose outcome is
// unknown; no event naming a request that wrote nothing; no event id twice; and each resource's
// `sequence` 1, 2, 3, … in stream order, with no gap.

export interface EventStats {
  events: number;
  /** Events matched to a write of the history by their request id. */
  matched: number;
  /** Events with no request id (the service's own changes: the root project of a first start). */
  system: number;
  /** Writes whose event was checked (count, type, resource, data). */
  writes: number;
  resources: number;
}

function withoutFields(data: unknown, fields: readonly string[] | undefined): unknown {
  if (!fields?.length || typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  return Object.fromEntries(Object.entries(data).filter(([key]) => !fields.includes(key)));
}

/** Each resource's events in stream order: `sequence` from 1, one more each time. */
function checkSequences(events: readonly StreamEvent[], out: Violation[]): number {
  const last = new Map<string, StreamEvent>();
  for (const event of events) {
    const previous = last.get(event.resource);
    const expected = (previous?.sequence ?? 0) + 1;
    if (event.sequence === undefined) {
      out.push(violation('sequence', `${event.resource}: an event without a decimal sequence`, [event]));
      continue;
    }
    if (event.sequence !== expected) {
      const what =
        event.sequence > expected
          ? `${event.resource}: sequence ${event.sequence} follows ${expected - 1}: ${
              event.sequence - expected === 1 ? `${expected} is` : `${expected}–${event.sequence - 1} are`
            } missing from the stream`
          : `${event.resource}: sequence ${event.sequence} follows ${expected - 1} (repeated or out of order)`;
      out.push(violation('sequence', what, previous ? [previous, event] : [event]));
    }
    last.set(event.resource, event);
  }
  return last.size;
}

export function checkEvents(history: History, out: Violation[]): EventStats {
  const events = [...history.events].sort((a, b) => a.streamSequence - b.streamSequence);
  const stats: EventStats = { events: events.length, matched: 0, system: 0, writes: 0, resources: 0 };

  // The same event id twice: JetStream's duplicate window let a republication through.
  const firstById = new Map<string, StreamEvent>();
  const unique: StreamEvent[] = [];
  for (const event of events) {
    const first = firstById.get(event.id);
    if (first) {
      out.push(violation('duplicate-event', `event id ${event.id} is in the stream twice`, [first, event]));
      continue;
    }
    firstById.set(event.id, event);
    unique.push(event);
  }
  stats.resources = checkSequences(unique, out);

  const byRequest = new Map<string, StreamEvent[]>();
  for (const event of unique) {
    if (event.requestId === undefined) {
      stats.system += 1;
      continue;
    }
    const list = byRequest.get(event.requestId) ?? [];
    list.push(event);
    byRequest.set(event.requestId, list);
  }

  const operations = new Map<string, Operation>();
  for (const op of history.operations) operations.set(op.requestId, op);
  for (const [requestId, list] of byRequest) {
    const op = operations.get(requestId);
    if (!op) {
      out.push(violation('stray-event', `an event names request ${requestId}, which no client sent`, list));
    } else if (!op.expectsEvent) {
      out.push(
        violation('stray-event', `an event names request ${requestId}, which wrote nothing`, [op, ...list]),
      );
    } else {
      stats.matched += list.length;
    }
  }

  for (const op of history.operations) {
    const expected = op.expectsEvent;
    if (!expected) continue;
    stats.writes += 1;
    const found = byRequest.get(op.requestId) ?? [];
    if (op.outcome === 'fail' && found.length > 0) {
      out.push(
        violation('event-for-refused-write', `a refused write (${op.status ?? op.error}) has an event`, [
          op,
          ...found,
        ]),
      );
      continue;
    }
    if (op.outcome === 'ok' && found.length === 0) {
      out.push(violation('missing-event', `an acknowledged write has no ${expected.type} event`, [op]));
      continue;
    }
    if (found.length > 1) {
      out.push(
        violation('duplicate-event', `one write has ${found.length} events (distinct ids)`, [op, ...found]),
      );
    }
    const event = found[0];
    if (!event) continue;
    if (event.type !== expected.type) {
      out.push(
        violation('event-mismatch', `the write's event is ${event.type}, not ${expected.type}`, [op, event]),
      );
    }
    if (expected.resource !== undefined && event.resource !== expected.resource) {
      out.push(
        violation(
          'event-mismatch',
          `the write's event is about ${event.resource}, not ${expected.resource}`,
          [op, event],
        ),
      );
    }
    if (op.outcome === 'ok' && expected.data !== undefined) {
      const difference = firstDifference(
        withoutFields(event.data, expected.ignoreFields),
        withoutFields(expected.data, expected.ignoreFields),
        'data',
      );
      if (difference) {
        out.push(
          violation(
            'event-mismatch',
            `the event's data is not the write's answer: ${difference} (answer ${brief(expected.data, 160)})`,
            [op, event],
          ),
        );
      }
    }
  }
  return stats;
}
