import type { Operation, StreamEvent } from './history';

/** What a check found wrong, by kind (the summary counts them; the self-test plants each). */
export type ViolationKind =
  /** An acknowledged write is not visible where it must be (the final state, a later lookup), or two acknowledged writes made the same version. */
  | 'lost-update'
  /** A read sent after a write was acknowledged shows an older value of the same register. */
  | 'stale-read'
  /** A read (or an event) shows the value of a write that was refused. */
  | 'refused-write-visible'
  /** A read shows a value no write gave, or one that was sent only after the read finished. */
  | 'unknown-value'
  /** A read shows a write's value with another version or representation than the write answered. */
  | 'inconsistent-read'
  /** Two writes of one register ordered against real time, or ETag order and event order disagree. */
  | 'write-order'
  /** An acknowledged write with no event. */
  | 'missing-event'
  /** A write with more than one event, or an event id twice in the stream. */
  | 'duplicate-event'
  /** An event for a write that was refused. */
  | 'event-for-refused-write'
  /** An event whose type, resource or data is not the write's. */
  | 'event-mismatch'
  /** An event naming a request that made no write. */
  | 'stray-event'
  /** A resource's `sequence` not 1, 2, 3, … in stream order. */
  | 'sequence'
  /** A 5xx or no answer outside every fault window. */
  | 'error-outside-faults'
  /** A replica exited when nobody stopped it. */
  | 'replica-crash';

export interface Violation {
  kind: ViolationKind;
  /** One line saying what is wrong, then the operations and events involved, one per line. */
  message: string;
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** JSON of `value`, cut to `max` characters. */
export function brief(value: unknown, max = 240): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? 'undefined');
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** One operation as a line of the history: who, what, when, and what came back. */
export function describeOperation(op: Operation): string {
  const answer =
    op.status === undefined
      ? `no answer (${op.error ?? 'unknown'})`
      : `${op.status}${op.etag ? ` ETag ${op.etag}` : ''}`;
  const request = op.request === undefined ? '' : ` ${brief(op.request, 160)}`;
  const response = op.response === undefined || op.response === '' ? '' : ` → ${brief(op.response, 200)}`;
  return (
    `op ${op.id} (${op.phase}, client ${op.client}, replica ${op.replica}, request id ${op.requestId}) ` +
    `${op.name}: ${op.method} ${op.path}${request}; sent ${seconds(op.invokedAt)} s, ` +
    `answered ${seconds(op.completedAt)} s: ${answer} [${op.outcome}]${response}`
  );
}

/** One event as a line: where in the stream, its type, resource, sequence, request and data. */
export function describeEvent(event: StreamEvent): string {
  return (
    `event #${event.streamSequence} ${event.type} ${event.resource} sequence ${event.sequence ?? '?'} ` +
    `request id ${event.requestId ?? '(none)'} id ${event.id}: data ${brief(event.data, 200)}`
  );
}

/** A violation: the line saying what, then each operation or event involved, indented. */
export function violation(
  kind: ViolationKind,
  what: string,
  involved: (Operation | StreamEvent)[],
): Violation {
  const lines = involved.map(
    (item) => `    ${'streamSequence' in item ? describeEvent(item) : describeOperation(item)}`,
  );
  return { kind, message: [what, ...lines].join('\n') };
}

/**
 * Where two JSON values first differ (`.name: "a" ≠ "b"`), or undefined when they are equal.
 * Object keys are compared as sets (order does not matter); arrays element by element.
 */
export function firstDifference(actual: unknown, expected: unknown, at = ''): string | undefined {
  if (Object.is(actual, expected)) return undefined;
  const bothObjects =
    typeof actual === 'object' && actual !== null && typeof expected === 'object' && expected !== null;
  if (!bothObjects || Array.isArray(actual) !== Array.isArray(expected)) {
    return `${at || '(the whole value)'}: ${brief(actual, 120)} ≠ ${brief(expected, 120)}`;
  }
  if (Array.isArray(actual) && Array.isArray(expected)) {
    if (actual.length !== expected.length) {
      return `${at || '(the array)'}: ${actual.length} items ≠ ${expected.length}`;
    }
    for (let index = 0; index < actual.length; index += 1) {
      const found = firstDifference(actual[index], expected[index], `${at}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  const a = actual as Record<string, unknown>;
  const b = expected as Record<string, unknown>;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (!(key in a)) return `${at}.${key}: missing ≠ ${brief(b[key], 120)}`;
    if (!(key in b)) return `${at}.${key}: ${brief(a[key], 120)} ≠ missing`;
    const found = firstDifference(a[key], b[key], `${at}.${key}`);
    if (found) return found;
  }
  return undefined;
}
