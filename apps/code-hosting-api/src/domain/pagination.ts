/** Page and size as Gitea's utils.GetListOptions corrects them. */
export interface ListOptions {
  page: number;
  pageSize: number;
}

export interface PagingSettings {
  defaultPageSize: number;
  maxPageSize: number;
}

function integerOrZero(value: unknown): number {
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

// Go's url.QueryEscape: everything but unreserved characters is escaped, spaces become '+'.
function goQueryEscape(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** Go's url.Values.Encode: keys sorted, values in order. */
function encodeQuery(query: URLSearchParams): string {
  const keys = [...new Set(query.keys())].sort();
  return keys
    .flatMap((key) => query.getAll(key).map((value) => `${goQueryEscape(key)}=${goQueryEscape(value)}`))
    .join('&');
}

/**
 * The Link header value Gitea's SetLinkHeader builds (services/context/api.go genAPILinks
 * over modules/paginator), or undefined when it would have no links.
 */
export function linkHeader(
  rootUrl: string,
  requestPath: string,
  requestQuery: string,
  total: number,
  pageSize: number,
): string | undefined {
  const totalPages = total === 0 ? 1 : Math.ceil(total / pageSize);
  const requested = integerOrZero(new URLSearchParams(requestQuery).get('page') ?? '');
  const current = Math.min(Math.max(requested, 1), totalPages);
  const hasNext = total > current * pageSize;
  const isLast = total === 0 || (total > (current - 1) * pageSize && !hasNext);
  const linkTo = (page: number, rel: string) => {
    const query = new URLSearchParams(requestQuery);
    query.set('page', String(page));
    return `<${rootUrl}${requestPath.replace(/^\//, '')}?${encodeQuery(query)}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (hasNext) links.push(linkTo(current + 1, 'next'));
  if (!isLast) links.push(linkTo(totalPages, 'last'));
  if (current !== 1) links.push(linkTo(1, 'first'));
  if (current > 1) links.push(linkTo(current - 1, 'prev'));
  return links.length ? links.join(',') : undefined;
}
