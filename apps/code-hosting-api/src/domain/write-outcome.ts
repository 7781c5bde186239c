/** A write that may collide with an existing name (the store's unique constraints decide). */
export type WriteOutcome<T> = { kind: 'written'; value: T } | { kind: 'name-taken' };
