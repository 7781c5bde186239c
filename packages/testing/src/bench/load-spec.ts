/** What the load process is asked to send, as JSON (functions cannot cross the process boundary). */
export interface LoadTarget {
  path: string;
  /** The ETag the first conditional request sends; later ones send the ETag of the last answer
   * for the same resource (found by the UUID in the path and the body's `"uid"`). */
  etag?: string;
  body?: string;
}

export type LoadMode =
  /** Every connection walks through the paths in turn. */
  | { kind: 'cycle'; paths: string[]; body?: string }
  /**
   * Requests (of all connections together) walk through the targets, each sending the ETag its
   * target's last answer carried; as many targets as requests make each request's target its own.
   */
  | { kind: 'per-connection'; targets: LoadTarget[] }
  /** Every request's body is `template` with each `{{n}}` a number unique in the run. */
  | { kind: 'unique'; path: string; template: string };

export interface LoadSpec {
  url: string;
  method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';
  headers: Record<string, string>;
  mode: LoadMode;
  connections: number;
  /** Seconds measured, after the warm-up. */
  duration: number;
  /**
   * Seconds the run sends requests before its measured window opens, on the same connections: they
   * are opened, and the server warmed after whatever ran before, outside what is measured.
   */
  warmup?: number;
}

/** What a run measured: the responses that came in its measured window (after the warm-up). */
export interface LoadResult {
  requests: number;
  /** Mean requests per second over the measured window. */
  rps: number;
  /** Latency percentiles and maximum of the responses, in ms (of every status, as autocannon's). */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Responses with a status other than 2xx (and 304), plus socket errors and timeouts. */
  failures: number;
  /** The same during the warm-up (not measured, but a scenario failing there is worth a warning). */
  warmupFailures: number;
  statuses: Record<string, number>;
}
