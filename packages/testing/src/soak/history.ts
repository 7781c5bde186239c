// The history of a soak run, as the checker (./checker.ts) reads it: every operation a client made
// (when it was sent, when its answer came, what it was and what came back), the faults the nemesis
// injected, and the change events the stream holds at the end. Pure data: the apps' workloads fill
// in what each operation wrote and what each read showed, in terms of registers (below).
//
// A register is one piece of a resource's state a write sets as a whole (a project's base, an
// organization's name, an attachment's name), named `<kind>:<id>:<part>`. Every write gives it a
// value no other write gives it (the workload puts the operation's own token in the body), so a
// read that shows a value names the write it comes from.

/** How an operation ended, as its client can know it. */
export type Outcome =
  /** A 2xx answer: the write is acknowledged, the read's answer is valid. */
  | 'ok'
  /** A definite refusal: a 4xx answer, or a connection that was refused (nothing was sent). */
  | 'fail'
  /** No answer, a broken one or a 5xx: a write may or may not have happened. */
  | 'unknown';

/** The value a write gives one register. */
export interface Write {
  register: string;
  /** Unique among the register's writes. */
  value: string;
  /** The service's own version of the register after the write (an ETag's revision), when it said. */
  version?: number;
  /** The representation the write answered with (canonical JSON), to compare with reads of it. */
  state?: string;
  /** The write deletes the resource: a read answering "not there" (ABSENT) shows this write. */
  removes?: boolean;
}

/** What a read (or an event's data) showed of one register. */
export interface Observation {
  register: string;
  /** A write's value, or ABSENT: the resource was not there. */
  value: string;
  /**
   * The read showed that the register did NOT hold `value` (a lookup by that value found nothing:
   * an organization by a name it no longer has).
   */
  negated?: boolean;
  /** The version the service gave with it (an ETag's revision). */
  version?: number;
  /** The representation read (canonical JSON), compared with the writer's answer. */
  state?: string;
  /**
   * For an event's data only: it shows the register as it was just before the event's own write
   * (a deletion's data, a settings update's `previous`), not after it.
   */
  before?: boolean;
}

/** The value a read shows of a resource that is not there (404, missing from a complete list). */
export const ABSENT = '∅';

/** The change event a write must have (one when acknowledged, none when refused, at most one when unknown). */
export interface ExpectedEvent {
  /** The event's resource, `<aggregate>.<id>` as in its subject; undefined when not known (a create with no answer). */
  resource?: string;
  type: string;
  /** The event's `data` must equal this (the write's response body), when known. */
  data?: unknown;
  /** Top-level fields of `data` left out of the comparison (shown by another check). */
  ignoreFields?: string[];
}

export type Phase = 'setup' | 'run' | 'final';

export interface Operation {
  /** Unique in the history; also in the request id. */
  id: number;
  /** The client that made it (-1: setup and final reads). */
  client: number;
  phase: Phase;
  /** What kind of operation, as the workload names it (`put-base`, `rename-org`, …). */
  name: string;
  /** The replica it was sent to. */
  replica: number;
  /** Its X-Request-Id: the change event's `requestid` names the write it comes from. */
  requestId: string;
  method: string;
  path: string;
  /** The request body (parsed JSON, or a description of a multipart upload). */
  request?: unknown;
  /** Milliseconds since the run began: when it was sent, and when its answer (or failure) came. */
  invokedAt: number;
  completedAt: number;
  status?: number;
  /** Why no complete answer came (ECONNRESET, TIMEOUT, …). */
  error?: string;
  etag?: string;
  /** The answer's body (parsed JSON when it is JSON). */
  response?: unknown;
  outcome: Outcome;
  /** For a write: the registers it sets (also when its outcome is unknown). */
  writes?: Write[];
  /** For a write: its event. */
  expectsEvent?: ExpectedEvent;
  /** For a successful read: what it showed. */
  observes?: Observation[];
}

export type FaultKind =
  /** SIGKILL of a replica, then a new process in its place. */
  | 'kill-replica'
  /** SIGTERM of a replica (it drains and stops), then a new process in its place. */
  | 'stop-replica'
  /** SIGKILL of the NATS server, then started again on its store. */
  | 'kill-nats'
  /** pg_terminate_backend of every connection to the service's database. */
  | 'terminate-connections';

export interface Fault {
  kind: FaultKind;
  /** What it hit: `replica 2`, `nats`, `7 connections`. */
  target: string;
  /** Milliseconds since the run began. */
  startedAt: number;
  /** When everything it broke was running again (the new replica listening, NATS ready). */
  healedAt: number;
}

/** One message of the stream, read from its first after the run. */
export interface StreamEvent {
  streamSequence: number;
  id: string;
  type: string;
  /** `<aggregate>.<id>` from the subject. */
  resource: string;
  /** The `sequence` extension as a number (undefined when missing or not a decimal string). */
  sequence?: number;
  requestId?: string;
  data: unknown;
  /** What its data shows of the registers, as the workload reads it. */
  observes: Observation[];
}

/** A replica that exited when nobody stopped it. */
export interface ReplicaExit {
  replica: number;
  /** Milliseconds since the run began. */
  at: number;
  /** Its exit code, or the signal's name. */
  code: number | string;
  /** The last lines it printed. */
  output: string[];
}

export interface History {
  operations: Operation[];
  faults: Fault[];
  events: StreamEvent[];
  /** Replicas that exited on their own (a crash): each is a violation. */
  exits: ReplicaExit[];
}
