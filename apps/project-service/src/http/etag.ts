import { revisionAllowed, type AllowedRevisions } from '../domain/revisions';

/**
 * Strong ETags from the revision counters, and the conditional request headers that name them.
 * Base and settings have separate counters and distinct prefixes, so one representation's ETag
 * never matches the other's.
 */
export type RevisionCounter = 'base' | 'settings';

const PREFIX: Record<RevisionCounter, string> = { base: 'b', settings: 's' };

export function etagOf(counter: RevisionCounter, revision: number): string {
  return `"${PREFIX[counter]}${revision}"`;
}

function tagsOf(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/**
 * The revisions an If-Match header allows: undefined means "any" (no header or `*`);
 * an empty list means nothing can match (the write must fail with 412).
 * Quoted or bare values are accepted; weak tags never match (If-Match compares strongly).
 */
export function revisionsAllowedBy(ifMatch: string | undefined, counter: RevisionCounter): AllowedRevisions {
  if (ifMatch === undefined) return undefined;
  const tags = tagsOf(ifMatch);
  if (tags.includes('*')) return undefined;
  const pattern = new RegExp(`^"?${PREFIX[counter]}(\\d{1,9})"?$`);
  return tags.flatMap((tag) => {
    const match = pattern.exec(tag);
    return match?.[1] ? [Number(match[1])] : [];
  });
}

/**
 * The revisions an If-None-Match header names (undefined: `*`, any). It uses weak comparison:
 * W/ prefixes are ignored; a tag names a revision only when it is exactly our ETag's text.
 */
function revisionsNamedBy(ifNoneMatch: string, counter: RevisionCounter): AllowedRevisions {
  const pattern = new RegExp(`^${PREFIX[counter]}(0|[1-9]\\d{0,14})$`);
  const revisions: number[] = [];
  for (const tag of ifNoneMatch.split(',')) {
    const bare = tag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
    if (bare === '*') return undefined;
    const match = pattern.exec(bare);
    if (match?.[1]) revisions.push(Number(match[1]));
  }
  return revisions;
}

/** True when If-None-Match names the current revision (or is `*`): answer 304. */
export function notModified(
  ifNoneMatch: string | undefined,
  counter: RevisionCounter,
  currentRevision: number,
): boolean {
  if (ifNoneMatch === undefined) return false;
  return revisionAllowed(revisionsNamedBy(ifNoneMatch, counter), currentRevision);
}
