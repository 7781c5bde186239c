import {
  ABSENT,
  type History,
  type Observation,
  type Operation,
  type StreamEvent,
  type Write,
} from './history';
import { firstDifference, violation, type Violation } from './violations';

// The registers against the reads: every value a read (or an event's data) shows comes from a write
// that was not refused and had been sent; a read sent after a write was acknowledged shows that
// write or a later one (no stale read); the final reads show each register's last committed write
// (no lost update). The order of two writes of a register is the service's version (an ETag's
// revision) when both have one, else their events' `sequence`; each is checked against the other
// and against real time (a write acknowledged before another was sent comes first).

export interface RegisterStats {
  registers: number;
  /** Observations checked: what reads and events' data showed. */
  observations: number;
  /** Reads compared with a write acknowledged before they were sent. */
  comparisons: number;
  /** Of those, the ones neither versions nor events could order (left out). */
  unordered: number;
}

interface Ref {
  op: Operation;
  write: Write;
  /** The version the write made: from its answer, else from a read that showed it with one. */
  version?: number;
  /** Its event's `sequence`, when it has one. */
  eventSequence?: number;
}

interface Register {
  name: string;
  refs: Ref[];
  byValue: Map<string, Ref>;
}

/** <0: a before b; >0: a after b; undefined: nothing orders them. */
function compare(a: Ref, b: Ref): number | undefined {
  if (a === b) return 0;
  if (a.version !== undefined && b.version !== undefined) return a.version - b.version;
  if (a.eventSequence !== undefined && b.eventSequence !== undefined)
    return a.eventSequence - b.eventSequence;
  return undefined;
}

const valueOf = (ref: Ref) =>
  `op ${ref.op.id}'s value${ref.version === undefined ? '' : ` (version ${ref.version})`}${
    ref.eventSequence === undefined ? '' : ` (event sequence ${ref.eventSequence})`
  }`;
const at = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

function registersOf(history: History): Map<string, Register> {
  const eventOf = new Map<string, StreamEvent>();
  for (const event of history.events) {
    if (event.requestId !== undefined && !eventOf.has(event.requestId)) eventOf.set(event.requestId, event);
  }
  const registers = new Map<string, Register>();
  for (const op of history.operations) {
    for (const write of op.writes ?? []) {
      let register = registers.get(write.register);
      if (!register) {
        register = { name: write.register, refs: [], byValue: new Map() };
        registers.set(write.register, register);
      }
      const twice = register.byValue.get(write.value);
      if (twice) {
        throw new Error(
          `soak workload: ops ${twice.op.id} and ${op.id} both write ${write.value} to ${write.register}; each write's value must be its own`,
        );
      }
      const ref: Ref = {
        op,
        write,
        version: op.outcome === 'ok' ? write.version : undefined,
        eventSequence: eventOf.get(op.requestId)?.sequence,
      };
      register.refs.push(ref);
      register.byValue.set(write.value, ref);
    }
  }
  // A write whose answer never came made the version a read showed it with.
  for (const op of history.operations) {
    if (op.outcome !== 'ok') continue;
    for (const seen of op.observes ?? []) {
      if (seen.version === undefined || seen.negated || seen.value === ABSENT) continue;
      const ref = registers.get(seen.register)?.byValue.get(seen.value);
      if (ref && ref.version === undefined) ref.version = seen.version;
    }
  }
  return registers;
}

/** Versions made twice, ETag order against event order, and writes ordered against real time. */
function checkWrites(register: Register, out: Violation[]): void {
  const byVersion = new Map<number, Ref>();
  for (const ref of register.refs) {
    if (ref.version === undefined) continue;
    const other = byVersion.get(ref.version);
    if (other) {
      out.push(
        violation(
          'lost-update',
          `${register.name}: two writes both made version ${ref.version}: one of them is lost`,
          [other.op, ref.op],
        ),
      );
    } else byVersion.set(ref.version, ref);
  }
  const both = [...byVersion.values()]
    .filter((ref) => ref.eventSequence !== undefined)
    .sort((a, b) => (a.version ?? 0) - (b.version ?? 0));
  for (let index = 1; index < both.length; index += 1) {
    const [earlier, later] = [both[index - 1]!, both[index]!];
    if ((later.eventSequence ?? 0) <= (earlier.eventSequence ?? 0)) {
      out.push(
        violation(
          'write-order',
          `${register.name}: version ${earlier.version} has event sequence ${earlier.eventSequence} and version ${later.version} ${later.eventSequence}: the versions and the events disagree`,
          [earlier.op, later.op],
        ),
      );
      break;
    }
  }
  const acked = register.refs.filter((ref) => ref.op.outcome === 'ok');
  for (const later of acked) {
    const earlier = acked.find(
      (ref) => ref.op.completedAt < later.op.invokedAt && (compare(later, ref) ?? 0) < 0,
    );
    if (earlier) {
      out.push(
        violation(
          'write-order',
          `${register.name}: op ${later.op.id} was sent after op ${earlier.op.id} was acknowledged, yet ${valueOf(later)} comes before ${valueOf(earlier)}`,
          [earlier.op, later.op],
        ),
      );
      return;
    }
  }
}

/** The register's last committed write: the greatest event sequence, else the greatest acknowledged version. */
function lastCommitted(register: Register): Ref | undefined {
  const ordered = register.refs.filter((ref) => ref.eventSequence !== undefined);
  const pool = ordered.length > 0 ? ordered : register.refs.filter((ref) => ref.version !== undefined);
  return pool.reduce<Ref | undefined>(
    (last, ref) => (last === undefined || (compare(ref, last) ?? 0) > 0 ? ref : last),
    undefined,
  );
}

/** The write an observation shows (reporting what is wrong with it), or undefined. */
function writeShown(
  register: Register | undefined,
  seen: Observation,
  involved: (Operation | StreamEvent)[],
  out: Violation[],
): Ref | undefined {
  if (!register) {
    out.push(
      violation('unknown-value', `${seen.register}: shown, but no write of the history sets it`, involved),
    );
    return undefined;
  }
  if (seen.value === ABSENT) {
    const removals = register.refs.filter((ref) => ref.write.removes);
    const candidates = removals.filter((ref) => ref.op.outcome !== 'fail');
    const chosen =
      candidates.find((ref) => ref.op.outcome === 'ok') ??
      candidates.find((ref) => ref.eventSequence !== undefined) ??
      candidates[0];
    if (!chosen) {
      out.push(
        removals.length > 0
          ? violation(
              'refused-write-visible',
              `${register.name}: gone, but every deletion of it was refused`,
              [...involved, ...removals.map((ref) => ref.op)],
            )
          : violation('lost-update', `${register.name}: gone, but no deletion of it was sent`, involved),
      );
    }
    return chosen;
  }
  const ref = register.byValue.get(seen.value);
  if (!ref) {
    out.push(
      violation(
        'unknown-value',
        `${register.name}: shows ${JSON.stringify(seen.value)}, which no write gave it`,
        involved,
      ),
    );
    return undefined;
  }
  if (ref.op.outcome === 'fail') {
    out.push(
      violation(
        'refused-write-visible',
        `${register.name}: shows the value of a refused write (${ref.op.status ?? ref.op.error})`,
        [...involved, ref.op],
      ),
    );
  }
  return ref;
}

/** One read's observation: not from the future, consistent with its write, not stale, and final when final. */
function checkRead(
  register: Register | undefined,
  read: Operation,
  seen: Observation,
  stats: RegisterStats,
  out: Violation[],
): void {
  if (seen.negated) {
    const ref = register?.byValue.get(seen.value);
    if (!register || !ref) {
      out.push(
        violation(
          'unknown-value',
          `${seen.register}: looked up by ${JSON.stringify(seen.value)}, which no write gave it`,
          [read],
        ),
      );
      return;
    }
    if (ref.op.outcome !== 'ok' || ref.op.completedAt >= read.invokedAt) return;
    const superseded = register.refs.some(
      (other) =>
        other !== ref &&
        other.op.outcome !== 'fail' &&
        other.op.invokedAt < read.completedAt &&
        (compare(other, ref) ?? 1) > 0,
    );
    if (!superseded) {
      out.push(
        violation(
          'lost-update',
          `${register.name}: a read sent at ${at(read.invokedAt)} did not find ${JSON.stringify(seen.value)}, acknowledged at ${at(ref.op.completedAt)}, and no later write of it had been sent`,
          [read, ref.op],
        ),
      );
    }
    return;
  }
  const ref = writeShown(register, seen, [read], out);
  if (!register || !ref) return;
  if (ref.op.invokedAt > read.completedAt) {
    out.push(
      violation('unknown-value', `${register.name}: a read shows a write sent only after it was answered`, [
        read,
        ref.op,
      ]),
    );
  }
  if (seen.version !== undefined && ref.version !== undefined && seen.version !== ref.version) {
    out.push(
      violation(
        'inconsistent-read',
        `${register.name}: a read shows ${valueOf(ref)} as version ${seen.version}`,
        [read, ref.op],
      ),
    );
  } else if (seen.state !== undefined && ref.write.state !== undefined && ref.op.outcome === 'ok') {
    const difference = firstDifference(JSON.parse(seen.state), JSON.parse(ref.write.state), 'read');
    if (difference) {
      out.push(
        violation(
          'inconsistent-read',
          `${register.name}: a read of ${valueOf(ref)} differs from the write's answer: ${difference}`,
          [read, ref.op],
        ),
      );
    }
  }
  let newest: Ref | undefined;
  for (const other of register.refs) {
    if (other === ref || other.op.outcome !== 'ok' || other.op.completedAt >= read.invokedAt) continue;
    stats.comparisons += 1;
    const order = compare(ref, other);
    if (order === undefined) stats.unordered += 1;
    else if (order < 0 && (newest === undefined || (compare(other, newest) ?? 0) > 0)) newest = other;
  }
  if (newest) {
    out.push(
      violation(
        'stale-read',
        `${register.name}: a read sent at ${at(read.invokedAt)} shows ${valueOf(ref)}, but ${valueOf(newest)} was acknowledged at ${at(newest.op.completedAt)}`,
        [read, ref.op, newest.op],
      ),
    );
  }
  if (read.phase === 'final') {
    const last = lastCommitted(register);
    if (last && last !== ref && (compare(ref, last) ?? 0) < 0) {
      out.push(
        violation(
          'lost-update',
          `${register.name}: the final read shows ${valueOf(ref)}, but ${valueOf(last)} committed after it`,
          [read, ref.op, last.op],
        ),
      );
    }
  }
}

/** An event's data shows each register as the last write at (or just before) its sequence left it. */
function checkEventData(
  register: Register | undefined,
  event: StreamEvent,
  seen: Observation,
  out: Violation[],
): void {
  const ref = writeShown(register, seen, [event], out);
  if (!register || !ref || event.sequence === undefined) return;
  const sequence = event.sequence;
  const expected = register.refs
    .filter((other) =>
      other.eventSequence === undefined
        ? false
        : seen.before
          ? other.eventSequence < sequence
          : other.eventSequence <= sequence,
    )
    .reduce<Ref | undefined>(
      (last, other) =>
        last === undefined || (other.eventSequence ?? 0) > (last.eventSequence ?? 0) ? other : last,
      undefined,
    );
  if (expected && expected !== ref) {
    out.push(
      violation(
        'event-mismatch',
        `${register.name}: the event's data shows ${valueOf(ref)}, but the last write ${seen.before ? 'before' : 'up to'} sequence ${sequence} is op ${expected.op.id}'s`,
        [event, ref.op, expected.op],
      ),
    );
  } else if (
    seen.state !== undefined &&
    ref.write.state !== undefined &&
    ref.op.outcome === 'ok' &&
    ref.op.requestId !== event.requestId
  ) {
    const difference = firstDifference(JSON.parse(seen.state), JSON.parse(ref.write.state), 'data');
    if (difference) {
      out.push(
        violation(
          'event-mismatch',
          `${register.name}: the event's data differs from op ${ref.op.id}'s answer: ${difference}`,
          [event, ref.op],
        ),
      );
    }
  }
}

export function checkRegisters(history: History, out: Violation[]): RegisterStats {
  const registers = registersOf(history);
  const stats: RegisterStats = { registers: registers.size, observations: 0, comparisons: 0, unordered: 0 };
  for (const register of registers.values()) checkWrites(register, out);
  for (const op of history.operations) {
    if (op.outcome !== 'ok') continue;
    for (const seen of op.observes ?? []) {
      stats.observations += 1;
      checkRead(registers.get(seen.register), op, seen, stats, out);
    }
  }
  const seenIds = new Set<string>();
  for (const event of history.events) {
    if (seenIds.has(event.id)) continue;
    seenIds.add(event.id);
    for (const seen of event.observes) {
      stats.observations += 1;
      checkEventData(registers.get(seen.register), event, seen, out);
    }
  }
  return stats;
}
