import { revisionAllowed, type AllowedRevisions } from '../domain/revisions';

/**
 * Strong ETags from the revision counters, and the conditional request headers that name them.
 * Base and settings have separate counters and distinct prefixes, so one representation's ETag
 * never matches the other's.
 */
export type RevisionCounter = 'base' | 'settings';

const PREFIX: Record<RevisionCounter, string> = { base: 'b', settings: 's' };

/** The revision columns are INT4: a larger number names no revision (and must not reach a query). */
const MAX_REVISION = 2 ** 31 - 1;

export function etagOf(counter: RevisionCounter, revision: number): string {
  return `"${PREFIX[counter]}${revision}"`;
}

/** One member of an If-Match / If-None-Match list. */
type ListedTag = { any: true } | { any: false; weak: boolean; opaque: string };

/**
 * The one parser of both headers: comma-separated members, `*` for any, `W/` marking a weak
 * tag; the quotes around a tag are optional (clients send our ETags bare too).
 */
function listedTags(header: string): ListedTag[] {
  return header
    .split(',')
    .map((member) => member.trim())
    .filter((member) => member !== '')
    .map((member): ListedTag => {
      if (member === '*') return { any: true };
      const weak = member.startsWith('W/');
      return { any: false, weak, opaque: (weak ? member.slice(2) : member).replace(/^"|"$/g, '') };
    });
}

/** The revision a tag names: only when its text is exactly one of our ETags' (no leading zeros). */
function revisionNamed(opaque: string, counter: RevisionCounter): number | undefined {
  const match = new RegExp(`^${PREFIX[counter]}(0|[1-9]\\d{0,9})$`).exec(opaque);
  const revision = match?.[1] === undefined ? undefined : Number(match[1]);
  return revision !== undefined && revision <= MAX_REVISION ? revision : undefined;
}

/** The revisions a list names: undefined when it holds `*` (any); weak tags count only if `weak`. */
function revisionsListed(header: string, counter: RevisionCounter, weak: boolean): AllowedRevisions {
  const tags = listedTags(header);
  if (tags.some((tag) => tag.any)) return undefined;
  return tags.flatMap((tag) => {
    if (tag.any || (tag.weak && !weak)) return [];
    const revision = revisionNamed(tag.opaque, counter);
    return revision === undefined ? [] : [revision];
  });
}

/**
 * The revisions an If-Match header allows: undefined means "any" (no header or `*`);
 * an empty list means nothing can match (the write must fail with 412).
 * Weak tags never match: If-Match compares strongly.
 */
export function revisionsAllowedBy(ifMatch: string | undefined, counter: RevisionCounter): AllowedRevisions {
  return ifMatch === undefined ? undefined : revisionsListed(ifMatch, counter, false);
}

/** True when If-None-Match names the current revision (or is `*`): answer 304. Weak comparison. */
export function notModified(
  ifNoneMatch: string | undefined,
  counter: RevisionCounter,
  currentRevision: number,
): boolean {
  if (ifNoneMatch === undefined) return false;
  return revisionAllowed(revisionsListed(ifNoneMatch, counter, true), currentRevision);
}
