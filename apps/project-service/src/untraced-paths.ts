/**
 * Paths polled every few seconds (the probes, /metrics): tracing.ts records no spans for them, the
 * access log (http/request-observation.ts) no lines.
 */
export const UNTRACED_PATHS: readonly string[] = ['/livez', '/readyz', '/metrics'];
