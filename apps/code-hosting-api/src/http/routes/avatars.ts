import { notFound } from '@repo/http-errors';
import { toPng } from 'jdenticon';
import type { RouteTable } from '../route-table';
import * as s from '../schemas';

/** Gitea's default avatar size in pixels, and the bounds of `?size=`. */
const defaultSize = 290;
const minSize = 16;
const maxSize = 512;

/** The pixel size asked for, within bounds; the default for anything that is not a number. */
function avatarSize(requested: string | undefined): number {
  const size = requested === undefined ? Number.NaN : Number.parseInt(requested, 10);
  if (!Number.isFinite(size)) return defaultSize;
  return Math.min(maxSize, Math.max(minSize, size));
}

/**
 * The avatar_url of users and organizations (ROOT_URL + "avatars/" + id): no avatar is ever
 * uploaded here, so every account has Gitea's kind of default, a picture generated from its id,
 * the same every time. Any id gets its picture, with no lookup: a 404 for ids no account has
 * (or a picture seeded by the account's kind) would tell anyone which private accounts exist.
 * An <img> sends no token, and one that does is not asked for a scope.
 */
export function avatarRoutes(table: RouteTable): void {
  const routes = table.resource({ tag: 'user', scope: 'user' });
  routes.add({
    method: 'get',
    path: '/avatars/{id}',
    params: s.AvatarParams,
    siteRoot: true,
    auth: { unscoped: true },
    operationId: 'getAvatar',
    summary: "A user's or organization's avatar (its avatar_url): a generated PNG",
    query: s.AvatarQuery,
    response: { status: 200, description: 'the picture', mediaType: 'image/png' },
    errors: [404],
    async handle({ res, params: { id }, query }) {
      if (id.value === undefined || id.value < 1) throw notFound(`avatar ${id.text} does not exist`);
      const png = toPng(`avatar:${id.value}`, avatarSize(query.size));
      res.setHeader('Content-Type', 'image/png');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      // The picture only depends on the id: clients may keep it for a day.
      res.setHeader('Cache-Control', 'public, max-age=86400');
      res.status(200).end(png);
    },
  });
}
