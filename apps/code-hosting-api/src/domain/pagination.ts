/** Page and size as Gitea's utils.GetListOptions corrects them. */
export interface ListOptions {
  page: number;
  pageSize: number;
}

export interface PagingSettings {
  defaultPageSize: number;
  maxPageSize: number;
}

/** A query value as Gitea's ctx.FormInt reads it: an integer, else 0. */
export function integerOrZero(value: unknown): number {
  if (typeof value !== 'string' || !/^-?\d+$/.test(value.trim())) return 0;
  const parsed = Number.parseInt(value, 10);
  return Number.isSafeInteger(parsed) ? parsed : 0;
}

/** `page` 0, negative or junk → 1; `limit` ≤ 0 or junk → default, above the maximum → maximum. */
export function listOptions(
  query: { page?: unknown; limit?: unknown },
  settings: PagingSettings,
): ListOptions {
  const page = Math.max(integerOrZero(query.page), 1);
  const limit = integerOrZero(query.limit);
  const pageSize = limit <= 0 ? settings.defaultPageSize : Math.min(limit, settings.maxPageSize);
  return { page, pageSize };
}

export function offsetOf(options: ListOptions): number {
  return (options.page - 1) * options.pageSize;
}
