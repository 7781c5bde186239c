import type { SoakCluster } from './cluster';
import type { Fault, FaultKind } from './history';
import type { Random } from './random';

// The nemesis: while the clients run, one fault at a time with quiet periods between, in a random
// order that gives every kind its turn before any comes again. Each fault is recorded from the
// moment it is injected until everything it broke runs again.

export const FAULT_KINDS: readonly FaultKind[] = [
  'kill-replica',
  'stop-replica',
  'kill-nats',
  'terminate-connections',
];

export interface NemesisOptions {
  cluster: SoakCluster;
  random: Random;
  /** The history's clock. */
  now(): number;
  /** The kinds of fault to inject (FAULT_KINDS by default). */
  kinds?: readonly FaultKind[];
  /** No fault starts after this time. */
  lastStartAt: number;
  /** The quiet period before the first fault and after each (the actual one is 1–1.5 times it). */
  quietMs: number;
  log(line: string): void;
}

const REPLACES_REPLICA = new Set<FaultKind>(['kill-replica', 'stop-replica']);

function shuffled<T>(items: readonly T[], random: Random): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = random.int(index + 1);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function inject(kind: FaultKind, options: NemesisOptions): Promise<string> {
  const { cluster, random } = options;
  switch (kind) {
    case 'kill-replica':
    case 'stop-replica': {
      const running = cluster.routable();
      if (running.length === 0) return 'no replica (none was running)';
      const index = random.pick(running);
      await cluster.stop(index, kind === 'kill-replica' ? 'SIGKILL' : 'SIGTERM');
      // Down for a moment, as a crashed pod is before its replacement starts.
      await sleep(500 + random.int(1000));
      await cluster.restart(index);
      return `replica ${index}`;
    }
    case 'kill-nats': {
      await cluster.nats.kill();
      await sleep(1500 + random.int(2000));
      await cluster.nats.start();
      return 'nats';
    }
    case 'terminate-connections': {
      // Twice, a moment apart: the second catches the connections the pools opened again meanwhile.
      const first = await cluster.terminateConnections();
      await sleep(300 + random.int(700));
      const second = await cluster.terminateConnections();
      return `${first} + ${second} database connections`;
    }
  }
}

/** Runs faults until `lastStartAt`; resolves with them once the last has healed. */
export async function runNemesis(options: NemesisOptions): Promise<Fault[]> {
  const { random, now } = options;
  const faults: Fault[] = [];
  const quiet = () => sleep(options.quietMs * (1 + random.next() / 2));
  let turn: FaultKind[] = [];
  await quiet();
  while (now() < options.lastStartAt) {
    if (turn.length === 0) {
      turn = shuffled(options.kinds ?? FAULT_KINDS, random);
      // The first turn begins with the faults that heal at once, so that even a short run (or a slow
      // machine, where a replica takes long to start) has every kind of fault once.
      if (faults.length === 0)
        turn.sort((a, b) => Number(REPLACES_REPLICA.has(a)) - Number(REPLACES_REPLICA.has(b)));
    }
    const kind = turn.shift()!;
    const startedAt = now();
    const target = await inject(kind, options);
    const fault: Fault = { kind, target, startedAt, healedAt: now() };
    faults.push(fault);
    options.log(
      `  .. ${kind} (${target}) at ${(startedAt / 1000).toFixed(1)} s, healed after ${((fault.healedAt - startedAt) / 1000).toFixed(1)} s`,
    );
    await quiet();
  }
  return faults;
}
