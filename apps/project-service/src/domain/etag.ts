/**
 * Strong ETags from the revision counters. Base and settings have separate
 * counters and distinct prefixes, so one representation's ETag never matches
 * the other's.
 */
export type Representation = 'base' | 'settings';

const PREFIX: Record<Representation, string> = { base: 'b', settings: 's' };

export function etagOf(representation: Representation, revision: number): string {
  return `"${PREFIX[representation]}${revision}"`;
}

/**
 * The revisions an If-Match header allows: undefined means "any" (no header or `*`);
 * an empty list means nothing can match (the write must fail with 412).
 * Quoted or bare values are accepted; weak tags never match (If-Match compares strongly).
 */
export function revisionsAllowedBy(
  ifMatch: string | undefined,
  representation: Representation,
): number[] | undefined {
  if (ifMatch === undefined) return undefined;
  const tags = ifMatch
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  if (tags.includes('*')) return undefined;
  const pattern = new RegExp(`^"?${PREFIX[representation]}(\\d{1,9})"?$`);
  return tags.flatMap((tag) => {
    const match = pattern.exec(tag);
    return match?.[1] ? [Number(match[1])] : [];
  });
}

/** True when If-None-Match names the current ETag (or is `*`): answer 304. */
export function noneMatchSatisfied(ifNoneMatch: string | undefined, currentEtag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const current = currentEtag.replace(/^"|"$/g, '');
  // If-None-Match uses weak comparison: W/ prefixes are ignored.
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, '').replace(/^"|"$/g, ''))
    .some((tag) => tag === '*' || tag === current);
}
