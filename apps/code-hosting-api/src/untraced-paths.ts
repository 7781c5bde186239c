/**
 * Paths polled every few seconds (the probes, /metrics, and Gitea's /api/healthz that existing Gitea
 * monitoring polls): tracing.ts records no spans for them, the access log no lines.
 */
export const UNTRACED_PATHS: readonly string[] = ['/livez', '/readyz', '/metrics', '/api/healthz'];
