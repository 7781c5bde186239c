/**
 * Optimistic concurrency: base and settings each carry a revision counter that a write of
 * that part increments. A conditional write names the revisions it may replace.
 */

/** The revisions a conditional write may replace: undefined, any; [], none (the write is stale). */
export type AllowedRevisions = number[] | undefined;

/** True when `revision` is one of `allowed` (always, when any is allowed). */
export function revisionAllowed(allowed: AllowedRevisions, revision: number): boolean {
  return allowed === undefined || allowed.includes(revision);
}
