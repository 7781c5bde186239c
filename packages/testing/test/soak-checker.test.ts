/**
 * The soak's checker (src/soak/) on synthetic histories: a clean one passes, and each kind of
 * violation planted in it is found, named and described with the operations involved.
 */
import {
  ABSENT,
  checkHistory,
  formatReport,
  type History,
  type Operation,
  type StreamEvent,
} from '../src/soak';
import type { ViolationKind } from '../src/soak';

const REGISTER = 'thing:1:name';

function op(
  fields: Partial<Operation> & Pick<Operation, 'id' | 'name' | 'invokedAt' | 'completedAt'>,
): Operation {
  return {
    client: 0,
    phase: 'run',
    replica: 0,
    requestId: `r${fields.id}`,
    method: 'GET',
    path: '/things/1',
    outcome: 'ok',
    status: 200,
    ...fields,
  };
}

/** A write of the register: its value is `v<id>`, its version `version`, its event expected. */
function write(id: number, version: number, at: number, outcome: Operation['outcome'] = 'ok'): Operation {
  const value = `v${id}`;
  return op({
    id,
    name: 'put-thing',
    method: 'PUT',
    invokedAt: at,
    completedAt: at + 5,
    outcome,
    status: outcome === 'ok' ? 200 : outcome === 'fail' ? 412 : 503,
    ...(outcome === 'ok' ? { etag: `"${version}"`, response: { name: value } } : {}),
    writes: [{ register: REGISTER, value, ...(outcome === 'ok' ? { version } : {}) }],
    expectsEvent: {
      resource: 'things.1',
      type: 'thing.updated',
      ...(outcome === 'ok' ? { data: { name: value } } : {}),
    },
  });
}

function read(
  id: number,
  value: string,
  version: number | undefined,
  at: number,
  phase: Operation['phase'] = 'run',
): Operation {
  return op({
    id,
    name: 'get-thing',
    phase,
    invokedAt: at,
    completedAt: at + 5,
    observes: [{ register: REGISTER, value, ...(version === undefined ? {} : { version }) }],
  });
}

function event(
  streamSequence: number,
  requestId: string | undefined,
  sequence: number,
  data: unknown,
): StreamEvent {
  return {
    streamSequence,
    id: `e${streamSequence}`,
    type: 'thing.updated',
    resource: 'things.1',
    sequence,
    ...(requestId === undefined ? {} : { requestId }),
    data,
    observes: [{ register: REGISTER, value: (data as { name: string }).name }],
  };
}

/**
 * Writes 1 and 2 acknowledged, 3 refused (412), 4 unknown (a 503 in the fault window, never
 * committed); reads after each acknowledgement, one 503 inside the fault window; the final read.
 */
function cleanHistory(): History {
  return {
    operations: [
      write(1, 1, 0),
      read(2, 'v1', 1, 10),
      write(3, 2, 20),
      read(4, 'v3', 2, 30),
      write(5, 3, 40, 'fail'),
      write(6, 3, 100, 'unknown'),
      op({ id: 7, name: 'get-thing', invokedAt: 110, completedAt: 120, outcome: 'unknown', status: 503 }),
      read(8, 'v3', 2, 300, 'final'),
    ],
    faults: [{ kind: 'kill-replica', target: 'replica 1', startedAt: 90, healedAt: 130 }],
    events: [event(1, 'r1', 1, { name: 'v1' }), event(2, 'r3', 2, { name: 'v3' })],
    exits: [],
  };
}

function kinds(history: History): ViolationKind[] {
  return [...new Set(checkHistory(history, { faultMarginMs: 50 }).violations.map((found) => found.kind))];
}

function planted(change: (history: History) => void): ViolationKind[] {
  const history = cleanHistory();
  change(history);
  return kinds(history);
}

const opNumbered = (history: History, id: number) => history.operations.find((o) => o.id === id)!;

describe('the soak checker', () => {
  it('finds nothing wrong in a clean history, and counts what it checked', () => {
    const report = checkHistory(cleanHistory(), { faultMarginMs: 50 });
    expect(report.violations).toEqual([]);
    expect(report.operations).toEqual({ total: 8, ok: 5, fail: 1, unknown: 2 });
    expect(report.events).toMatchObject({ events: 2, matched: 2, writes: 4, resources: 1 });
    expect(report.errors.inWindows).toEqual({ 'kill-replica 503': 2 });
    expect(formatReport('soak test', report)).toContain('violations: none');
  });

  it('finds a lost update: the final read shows a write another acknowledged write superseded', () => {
    expect(planted((h) => (h.operations[7] = read(8, 'v1', 1, 300, 'final')))).toContain('lost-update');
  });

  it('finds a lost update: two acknowledged writes that made the same version', () => {
    expect(planted((h) => (opNumbered(h, 3).writes![0]!.version = 1))).toContain('lost-update');
  });

  it('finds a lost update: a lookup that no longer finds a value nothing replaced', () => {
    const found = planted((h) =>
      h.operations.push(
        op({
          id: 9,
          name: 'find-thing',
          invokedAt: 60,
          completedAt: 65,
          observes: [{ register: REGISTER, value: 'v3', negated: true }],
        }),
      ),
    );
    expect(found).toEqual(['lost-update']);
  });

  it('finds a lost update: a resource gone though no deletion was sent', () => {
    expect(planted((h) => (h.operations[7] = read(8, ABSENT, undefined, 300, 'final')))).toContain(
      'lost-update',
    );
  });

  it('finds a stale read: a read sent after an acknowledged write shows the value before it', () => {
    const history = cleanHistory();
    history.operations[3] = read(4, 'v1', 1, 30);
    const report = checkHistory(history, { faultMarginMs: 50 });
    expect(report.violations.map((found) => found.kind)).toEqual(['stale-read']);
    // Described precisely: the read, the write it shows and the acknowledged write it missed.
    expect(report.violations[0]!.message).toMatch(
      /thing:1:name: a read sent at 0\.030 s shows op 1's value \(version 1\)/,
    );
    expect(report.violations[0]!.message).toMatch(/op 3's value \(version 2\).*was acknowledged at 0\.025 s/);
    expect(report.violations[0]!.message).toContain(
      'op 4 (run, client 0, replica 0, request id r4) get-thing',
    );
  });

  it('finds a refused write made visible', () => {
    expect(planted((h) => (h.operations[7] = read(8, 'v5', 3, 300, 'final')))).toContain(
      'refused-write-visible',
    );
  });

  it('finds a read of a value nobody wrote, and one from the future', () => {
    expect(planted((h) => (h.operations[1] = read(2, 'v99', 1, 10)))).toEqual(['unknown-value']);
    expect(planted((h) => (h.operations[1] = read(2, 'v3', 2, 10)))).toContain('unknown-value');
  });

  it('finds a read whose version is not the one its write made', () => {
    expect(planted((h) => (h.operations[3] = read(4, 'v3', 7, 30)))).toEqual(['inconsistent-read']);
  });

  it('finds writes ordered against real time', () => {
    // Write 3, sent after write 1 was acknowledged, ordered before it.
    expect(
      planted((h) => {
        opNumbered(h, 1).writes![0]!.version = 5;
        h.operations[1] = read(2, 'v1', 5, 10);
        h.operations[7] = read(8, 'v1', 5, 300, 'final');
      }),
    ).toContain('write-order');
  });

  it('finds a duplicate event: the same id twice, and two events of one write', () => {
    expect(planted((h) => h.events.push({ ...h.events[1]!, streamSequence: 3 }))).toEqual([
      'duplicate-event',
    ]);
    expect(planted((h) => h.events.push({ ...event(3, 'r3', 3, { name: 'v3' }) }))).toContain(
      'duplicate-event',
    );
  });

  it('finds a missing event of an acknowledged write', () => {
    expect(planted((h) => h.events.pop())).toEqual(['missing-event']);
  });

  it('finds an event of a refused write', () => {
    expect(planted((h) => h.events.push(event(3, 'r5', 3, { name: 'v5' })))).toContain(
      'event-for-refused-write',
    );
  });

  it("finds an event whose data is not the write's answer, or whose type is another", () => {
    expect(planted((h) => (h.events[1]!.data = { name: 'v3', extra: true }))).toEqual(['event-mismatch']);
    expect(planted((h) => (h.events[1]!.type = 'thing.deleted'))).toEqual(['event-mismatch']);
  });

  it("finds an event's data showing a state the register never had at that point", () => {
    expect(planted((h) => (h.events[1]!.observes = [{ register: REGISTER, value: 'v1' }]))).toEqual([
      'event-mismatch',
    ]);
  });

  it('finds an event naming a request that wrote nothing', () => {
    expect(planted((h) => h.events.push(event(3, 'r2', 3, { name: 'v1' })))).toContain('stray-event');
  });

  it('finds a sequence gap, and a sequence repeated', () => {
    expect(planted((h) => (h.events[1]!.sequence = 3))).toEqual(['sequence']);
    expect(planted((h) => (h.events[1]!.sequence = 1))).toContain('sequence');
  });

  it('finds a 5xx outside every fault window, and allows it inside one and its margin', () => {
    const outside = (at: number) =>
      planted((h) =>
        h.operations.push(
          op({
            id: 9,
            name: 'get-thing',
            invokedAt: at,
            completedAt: at + 5,
            outcome: 'unknown',
            status: 500,
          }),
        ),
      );
    expect(outside(250)).toEqual(['error-outside-faults']);
    expect(outside(170)).toEqual([]);
    // Inside two windows: counted against the later fault.
    const overlapping = cleanHistory();
    overlapping.faults.push({ kind: 'kill-nats', target: 'nats', startedAt: 160, healedAt: 165 });
    overlapping.operations.push(
      op({ id: 9, name: 'get-thing', invokedAt: 150, completedAt: 170, outcome: 'unknown', status: 503 }),
    );
    expect(checkHistory(overlapping, { faultMarginMs: 50 }).errors.inWindows).toEqual({
      'kill-replica 503': 2,
      'kill-nats 503': 1,
    });
    const report = checkHistory(
      {
        ...cleanHistory(),
        operations: [
          ...cleanHistory().operations,
          op({
            id: 9,
            name: 'get-thing',
            invokedAt: 1,
            completedAt: 2,
            outcome: 'unknown',
            status: undefined,
            error: 'ECONNRESET',
          }),
        ],
      },
      { faultMarginMs: 50 },
    );
    expect(report.violations[0]!.message).toMatch(
      /^no answer \(ECONNRESET\) outside every fault window .* the nearest fault window is kill-replica of replica 1, 0\.090–0\.180 s/,
    );
  });

  it('reports a replica that exited when nothing stopped it, with its last lines', () => {
    const history = cleanHistory();
    history.exits.push({
      replica: 2,
      at: 150,
      code: 1,
      output: ['Error: Connection terminated unexpectedly'],
    });
    const report = checkHistory(history, { faultMarginMs: 50 });
    expect(report.violations.map((found) => found.kind)).toEqual(['replica-crash']);
    expect(report.violations[0]!.message).toBe(
      'replica 2 exited (1) at 0.150 s, when nothing stopped it; its last lines:\n    Error: Connection terminated unexpectedly',
    );
  });

  it('accepts a deletion seen as absent, and reports reads of it from before it was sent', () => {
    const deletion = (history: History) => {
      history.operations.push(
        op({
          id: 9,
          name: 'delete-thing',
          method: 'DELETE',
          invokedAt: 200,
          completedAt: 205,
          status: 204,
          writes: [{ register: REGISTER, value: 'd9', removes: true }],
          expectsEvent: { resource: 'things.1', type: 'thing.deleted' },
        }),
      );
      history.events.push({
        ...event(3, 'r9', 3, { name: 'v3' }),
        type: 'thing.deleted',
        observes: [{ register: REGISTER, value: 'v3', before: true }],
      });
    };
    expect(
      planted((h) => {
        deletion(h);
        h.operations[7] = read(8, ABSENT, undefined, 300, 'final');
      }),
    ).toEqual([]);
    expect(
      planted((h) => {
        deletion(h);
        h.operations[3] = read(4, ABSENT, undefined, 30);
      }),
    ).toContain('unknown-value');
  });
});
