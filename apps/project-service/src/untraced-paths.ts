/** Paths polled every few seconds (the probes, /metrics): tracing.ts records no spans for them. */
export const UNTRACED_PATHS: readonly string[] = ['/livez', '/readyz', '/metrics'];
