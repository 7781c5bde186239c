import type { Request, Response } from 'express';
import { linkHeader, type ListOptions } from '../domain/pagination';

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
