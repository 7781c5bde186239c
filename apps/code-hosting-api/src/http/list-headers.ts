import type { Request, Response } from 'express';
import { integerOrZero, type ListOptions } from '../domain/pagination';

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
function linkHeader(
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

function exposeHeader(res: Response, name: string): void {
  const current = res.getHeader('Access-Control-Expose-Headers');
  res.setHeader('Access-Control-Expose-Headers', current ? `${String(current)}, ${name}` : name);
}

/** Gitea's SetLinkHeader then SetTotalCountHeader, each exposed to CORS. */
export function setListHeaders(
  req: Request,
  res: Response,
  rootUrl: string,
  total: number,
  options: ListOptions,
): void {
  const [path = '', query = ''] = req.originalUrl.split('?', 2);
  const link = linkHeader(rootUrl, path, query, total, options.pageSize);
  if (link) {
    res.setHeader('Link', link);
    exposeHeader(res, 'Link');
  }
  res.setHeader('X-Total-Count', String(total));
  exposeHeader(res, 'X-Total-Count');
}
