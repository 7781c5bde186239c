import { Counter } from 'prom-client';
import { registry } from '../metrics/registry';

/** Bodies decoded and encoded, by format (json, xml, gob), direction and outcome. */
export const codecOperations = new Counter({
  name: 'project_service_codec_operations_total',
  help: 'Request bodies decoded and response bodies encoded, by format (json, xml, gob), direction and outcome',
  labelNames: ['format', 'direction', 'outcome'] as const,
  registers: [registry],
});

/** Token checks: accepted, or rejected (401). */
export const authentications = new Counter({
  name: 'project_service_authentications_total',
  help: 'Bearer tokens checked on /projects, by outcome (accepted, rejected)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/**
 * Authenticated requests by what the role model decided: allowed (2xx/3xx), forbidden (403).
 * A project the caller may not view answers 404 like one that does not exist (its existence is
 * not revealed), so those are counted with the other client errors as `other`.
 */
export const authorizations = new Counter({
  name: 'project_service_authorizations_total',
  help: 'Authenticated /projects requests by authorization outcome (allowed, forbidden, other)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export function authorizationOutcome(status: number): 'allowed' | 'forbidden' | 'other' {
  if (status === 403) return 'forbidden';
  return status < 400 ? 'allowed' : 'other';
}

/** `json`, `xml`, `gob`: a codec's canonical media type's subtype. */
export function formatOf(codec: { mediaTypes: string[] }): string {
  return (codec.mediaTypes[0] ?? '').split('/')[1] ?? 'unknown';
}
