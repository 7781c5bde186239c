import type { Fault, History, Operation } from './history';
import { violation, type Violation } from './violations';

// Failures of the service itself (a 5xx, no answer, a refused connection) are allowed only while a
// fault is on: from its start until `marginMs` after everything it broke runs again. Outside every
// such window, one is a violation.

export interface ErrorStats {
  /** The failures inside fault windows, by the fault's kind and the status or error code (`kill-replica ECONNRESET`). */
  inWindows: Record<string, number>;
}

const failed = (op: Operation) => op.status === undefined || op.status >= 500;

export function faultWindows(
  faults: readonly Fault[],
  marginMs: number,
): { from: number; to: number; fault: Fault }[] {
  return faults.map((fault) => ({ from: fault.startedAt, to: fault.healedAt + marginMs, fault }));
}

export function checkErrors(history: History, marginMs: number, out: Violation[]): ErrorStats {
  const windows = faultWindows(history.faults, marginMs);
  const stats: ErrorStats = { inWindows: {} };
  for (const op of history.operations) {
    if (!failed(op)) continue;
    // Counted against the latest fault it overlaps (the one most likely to have caused it).
    const window = windows
      .filter(({ from, to }) => op.invokedAt <= to && op.completedAt >= from)
      .reduce<(typeof windows)[number] | undefined>(
        (latest, candidate) => (latest === undefined || candidate.from > latest.from ? candidate : latest),
        undefined,
      );
    if (window) {
      const key = `${window.fault.kind} ${op.status === undefined ? (op.error ?? 'no answer') : String(op.status)}`;
      stats.inWindows[key] = (stats.inWindows[key] ?? 0) + 1;
      continue;
    }
    const nearest = windows.reduce<(typeof windows)[number] | undefined>((best, candidate) => {
      const distance = (w: (typeof windows)[number]) =>
        Math.min(Math.abs(op.invokedAt - w.to), Math.abs(w.from - op.completedAt));
      return best === undefined || distance(candidate) < distance(best) ? candidate : best;
    }, undefined);
    const context = nearest
      ? `; the nearest fault window is ${nearest.fault.kind} of ${nearest.fault.target}, ${(nearest.from / 1000).toFixed(3)}–${(nearest.to / 1000).toFixed(3)} s`
      : '; no fault was injected';
    out.push(
      violation(
        'error-outside-faults',
        `${op.status === undefined ? `no answer (${op.error})` : op.status} outside every fault window (each fault's start to ${marginMs} ms after it healed)${context}`,
        [op],
      ),
    );
  }
  return stats;
}
