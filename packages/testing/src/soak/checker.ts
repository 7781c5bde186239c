import { checkErrors, type ErrorStats } from './check-errors';
import { checkEvents, type EventStats } from './check-events';
import { checkRegisters, type RegisterStats } from './check-registers';
import type { FaultKind, History, Outcome } from './history';
import type { Violation, ViolationKind } from './violations';

// The checker of a soak's history (./history.ts): the registers (no lost update, no stale read,
// nothing refused visible), the events (exactly one per acknowledged write with its answer as data,
// none when refused, sequences without gaps) and the errors (none outside a fault window). Pure: the
// same history gives the same report.

export interface CheckOptions {
  /** How long after a fault healed its failures are still allowed (the service's reconnects and retries). */
  faultMarginMs: number;
}

type Counts = Record<Outcome, number>;

export interface SoakReport {
  violations: Violation[];
  operations: Counts & { total: number };
  /** Per operation name (the workload's), its outcomes. */
  byName: Record<string, Counts>;
  faults: Partial<Record<FaultKind, number>>;
  events: EventStats;
  registers: RegisterStats;
  errors: ErrorStats;
}

export function checkHistory(history: History, options: CheckOptions): SoakReport {
  const violations: Violation[] = [];
  const events = checkEvents(history, violations);
  const registers = checkRegisters(history, violations);
  const errors = checkErrors(history, options.faultMarginMs, violations);
  for (const exit of history.exits) {
    violations.push({
      kind: 'replica-crash',
      message: [
        `replica ${exit.replica} exited (${exit.code}) at ${(exit.at / 1000).toFixed(3)} s, when nothing stopped it; its last lines:`,
        ...exit.output.map((line) => `    ${line}`),
      ].join('\n'),
    });
  }
  const operations = { total: 0, ok: 0, fail: 0, unknown: 0 };
  const byName: Record<string, Counts> = {};
  for (const op of history.operations) {
    operations.total += 1;
    operations[op.outcome] += 1;
    const counts = (byName[op.name] ??= { ok: 0, fail: 0, unknown: 0 });
    counts[op.outcome] += 1;
  }
  const faults: Partial<Record<FaultKind, number>> = {};
  for (const fault of history.faults) faults[fault.kind] = (faults[fault.kind] ?? 0) + 1;
  return { violations, operations, byName, faults, events, registers, errors };
}

const outcomes = (c: Counts) => `ok ${c.ok}, refused ${c.fail}, unknown ${c.unknown}`;
const listed = (record: Record<string, number>) =>
  Object.entries(record)
    .map(([key, count]) => `${key} ×${count}`)
    .join(', ') || 'none';

/** The report as lines for a person: the numbers, then each kind of violation with its first instances. */
export function formatReport(title: string, report: SoakReport, shown = 3): string {
  const { operations, events, registers, errors } = report;
  const faultCount = Object.values(report.faults).reduce((sum, count) => sum + (count ?? 0), 0);
  const lines = [
    `${title}: ${operations.total} operations (${outcomes(operations)})`,
    ...Object.entries(report.byName)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([name, counts]) =>
          `  ${name.padEnd(22)} ${String(counts.ok + counts.fail + counts.unknown).padStart(6)}  (${outcomes(counts)})`,
      ),
    `  faults: ${faultCount} (${listed(report.faults as Record<string, number>)}); failures inside their windows: ${listed(errors.inWindows)}`,
    `  events: ${events.events} in the stream over ${events.resources} resources, ${events.matched} matched to writes, ${events.system} of the service's own; ${events.writes} writes checked against them`,
    `  registers: ${registers.registers}; ${registers.observations} observations (reads and event data); ${registers.comparisons} comparisons of a read with an earlier acknowledged write (${registers.unordered} unordered, left out)`,
  ];
  if (report.violations.length === 0) {
    lines.push('  violations: none');
    return lines.join('\n');
  }
  const byKind = new Map<ViolationKind, Violation[]>();
  for (const found of report.violations) byKind.set(found.kind, [...(byKind.get(found.kind) ?? []), found]);
  lines.push(
    `  VIOLATIONS: ${report.violations.length} (${[...byKind].map(([kind, list]) => `${kind} ×${list.length}`).join(', ')})`,
  );
  for (const [kind, list] of byKind) {
    for (const found of list.slice(0, shown)) lines.push(`  [${kind}] ${found.message}`);
    if (list.length > shown) lines.push(`  [${kind}] … and ${list.length - shown} more`);
  }
  return lines.join('\n');
}
