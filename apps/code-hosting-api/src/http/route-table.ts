import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import { createHttpError, forbidden, unauthorized } from '@repo/http-errors';
import { Router, type Request, type RequestHandler } from 'express';
import type { IRouter } from 'express';
import { z, type ZodObject, type ZodType } from 'zod';
import { requireUser } from '../domain/caller';
import { listOptions, type PagingSettings } from '../domain/pagination';
import { scopesAllow } from '../domain/token-scopes';
import { authenticationOf } from './authentication';
import { jsonBodyOf } from './json-body';
import { setListHeaders } from './list-headers';
import { APIError, SyncHeaders, TextParam } from './schemas';
import { settleSync, syncStatusHeader, type SyncOptions } from './x-sync';
import type { AnyRoute, Method, ResourceDefaults, ResourceRoutes, RouteDefinition } from './route-definition';

export type * from './route-definition';

const errorDescriptions: Record<number, string> = {
  400: 'bad request',
  401: 'authentication required or invalid',
  403: 'forbidden',
  404: 'not found',
  409: 'conflict',
  413: 'the upload is larger than allowed',
  415: 'the body is not JSON',
  416: 'the requested range is not satisfiable',
  422: 'validation error',
  423: 'repository is archived',
};

/**
 * The operation's JSON body, valid. A body refused (not JSON, or invalid) is refused only after
 * `authorize` let the caller through, so that a caller who may not act learns nothing about it.
 */
async function readBody(req: Request, schema: ZodType, authorize: () => Promise<unknown>): Promise<unknown> {
  try {
    return schema.parse(jsonBodyOf(req));
  } catch (error) {
    await authorize();
    throw error;
  }
}

/** The X-Sync of a request to an operation with `xSync`, valid (a ZodError otherwise); undefined for the others. */
function requestedSync(route: AnyRoute, req: Request): string | undefined {
  return route.xSync ? SyncHeaders.parse({ 'X-Sync': req.get('X-Sync') })['X-Sync'] : undefined;
}

/** Every parameter of the path, in path order: its declared schema, or text as written (TextParam). */
function pathSchema(route: AnyRoute): ZodObject {
  const declared: Record<string, ZodType> = route.params?.shape ?? {};
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  return z.object(Object.fromEntries(names.map((name) => [name, declared[name] ?? TextParam])));
}

/** One declaration per operation: the Express route and its OpenAPI description come from it. */
export class RouteTable {
  /** The /api/v1 operations. */
  readonly router: IRouter = Router();
  /** The operations served at the site root (siteRoot), behind `siteMiddleware`. */
  readonly siteRouter: IRouter = Router();
  private readonly registry = new OpenAPIRegistry();
  /** The methods of each declared path, per router: the `Allow` of its 405 and OPTIONS answers. */
  private readonly allowed = new Map<IRouter, Map<string, string[]>>();

  /**
   * rootUrl: the base of Link headers; paging: the deployment's page sizes; siteMiddleware: what
   * runs before a site-root operation (authentication, mounted with /api/v1 for the others);
   * sync: what X-Sync waits on (no relay, events off: `disabled`).
   */
  constructor(
    private readonly options: {
      rootUrl: string;
      paging: PagingSettings;
      siteMiddleware?: RequestHandler[];
      sync?: SyncOptions;
    },
  ) {}

  /** The operations of one resource, sharing `defaults`. */
  resource({ tag, scope }: ResourceDefaults): ResourceRoutes {
    return {
      add: (route) => this.add({ ...route, tag: route.tag ?? tag, auth: { scope, ...route.auth } }),
    };
  }

  add<
    Path extends string,
    ParamsSchema extends ZodObject | undefined = undefined,
    QuerySchema extends ZodObject | undefined = undefined,
    BodySchema extends ZodType | undefined = undefined,
  >(definition: RouteDefinition<Path, ParamsSchema, QuerySchema, BodySchema>): void {
    const route = definition as unknown as AnyRoute;
    const { rootUrl, paging: pagingSettings, sync = { timeoutMs: 0 } } = this.options;
    const expressPath = route.path.replace(/\{(\w+)\}/g, ':$1');
    const router = route.siteRoot ? this.siteRouter : this.router;
    const middleware = route.siteRoot ? (this.options.siteMiddleware ?? []) : [];
    const params = pathSchema(route);
    this.allow(router, expressPath, route.method);
    router[route.method](expressPath, ...middleware, async (req, res) => {
      const { auth } = route;
      const mode = route.method === 'get' ? 'read' : 'write';
      const { scopes, viaBasicPassword, caller } = await authenticationOf(res);
      if (auth.scheme === 'basic' && !viaBasicPassword) throw unauthorized('auth required');
      if (!auth.unscoped && caller.user && scopes && !scopesAllow(scopes, auth.scope, mode)) {
        throw forbidden(
          `token does not have at least one of required scope(s), required=[${mode}:${auth.scope}], token scope=${scopes.join(',')}`,
        );
      }
      const parsedParams = params.parse(req.params);
      const body = route.body
        ? await readBody(req, route.body, async () => {
            if (auth.authorize) await auth.authorize({ caller, params: parsedParams });
            else requireUser(caller);
          })
        : undefined;
      const query = route.query ? route.query.parse(req.query) : {};
      const requested = requestedSync(route, req);
      const paging = listOptions(query as { page?: unknown; limit?: unknown }, pagingSettings);
      await route.handle({
        req,
        res,
        caller,
        params: parsedParams,
        query,
        body,
        paging,
        settleSync: () => settleSync(res, requested, sync),
        sendPage(page, toWire) {
          setListHeaders(req, res, rootUrl, page.total, paging);
          res.json(page.items.map(toWire));
        },
      } as Parameters<AnyRoute['handle']>[0]);
    });

    const { response } = route;
    const responseHeaders = route.xSync ? { ...response.headers, ...syncStatusHeader } : response.headers;
    const errors = route.xSync && !route.errors.includes(422) ? [...route.errors, 422] : route.errors;
    const responseSchema = response.schema && (response.list ? response.schema.array() : response.schema);
    this.registry.registerPath({
      method: route.method,
      path: route.path,
      operationId: route.operationId,
      summary: route.summary,
      ...(route.deprecated ? { deprecated: true } : {}),
      tags: [route.tag],
      ...(route.auth.unscoped ? { security: [] } : {}),
      // Path parameters come from `request.params`; an operation with none still lists `[]`.
      parameters: [],
      ...(route.siteRoot ? { servers: [{ url: rootUrl }] } : {}),
      request: {
        params,
        ...(route.query ? { query: route.query } : {}),
        ...(route.xSync ? { headers: SyncHeaders } : {}),
        ...(route.body
          ? { body: { required: true, content: { 'application/json': { schema: route.body } } } }
          : {}),
        ...(route.formData
          ? { body: { required: true, content: { 'multipart/form-data': { schema: route.formData } } } }
          : {}),
      },
      responses: {
        [response.status]: {
          description: response.description,
          ...(response.list
            ? {
                headers: {
                  'X-Total-Count': { schema: { type: 'integer' }, description: 'total number of items' },
                  Link: { schema: { type: 'string' }, description: 'next/last/first/prev pages' },
                },
              }
            : {}),
          ...(responseHeaders ? { headers: responseHeaders } : {}),
          ...(responseSchema ? { content: { 'application/json': { schema: responseSchema } } } : {}),
          ...(response.mediaType
            ? { content: { [response.mediaType]: { schema: { type: 'string', format: 'binary' } } } }
            : {}),
        },
        ...Object.fromEntries(
          [...errors, ...(route.body ? [415] : [])].map((status) => [
            status,
            {
              description: errorDescriptions[status] ?? 'error',
              content: { 'application/json': { schema: APIError } },
            },
          ]),
        ),
      },
    });
  }

  private allow(router: IRouter, expressPath: string, method: Method): void {
    const paths = this.allowed.get(router) ?? new Map<string, string[]>();
    this.allowed.set(router, paths);
    paths.set(expressPath, [...(paths.get(expressPath) ?? []), method.toUpperCase()]);
  }

  /**
   * After the last operation: every declared path answers its other methods with 405 and `Allow`
   * (OPTIONS with 204 and `Allow`), derived from the declarations above.
   */
  completePaths(): void {
    for (const [router, paths] of this.allowed) {
      for (const [expressPath, methods] of paths) {
        const allow = methods.join(', ');
        router.all(expressPath, async (req, res) => {
          // A token is checked first, as on every API request (401 before 405).
          await authenticationOf(res);
          if (req.method === 'OPTIONS') {
            res.setHeader('Allow', allow);
            res.status(204).end();
            return;
          }
          throw createHttpError(405, `method not allowed: ${req.method} (this path allows ${allow})`, {
            headers: { Allow: allow },
          });
        });
      }
    }
  }

  document(rootUrl: string): ReturnType<OpenApiGeneratorV3['generateDocument']> {
    // Gitea's schemes, one per credential form authentication.ts accepts (no TOTP: no account
    // has a second factor), so Swagger UI's Authorize offers each of them. The query tokens are
    // accepted, here as by Gitea 1.23, whose own document announces their removal.
    const queryToken = (name: string) =>
      `An access token in the \`${name}\` query parameter. Accepted, as Gitea accepts it; ` +
      "Gitea's document marks this form deprecated, so prefer AuthorizationHeaderToken: a URL can " +
      'end up in browser history and in the logs of proxies.';
    const sudo = 'Sudo API request as the user provided as the key. Admin privileges are required.';
    this.registry.registerComponent('securitySchemes', 'BasicAuth', { type: 'http', scheme: 'basic' });
    this.registry.registerComponent('securitySchemes', 'Token', {
      type: 'apiKey',
      in: 'query',
      name: 'token',
      description: queryToken('token'),
    });
    this.registry.registerComponent('securitySchemes', 'AccessToken', {
      type: 'apiKey',
      in: 'query',
      name: 'access_token',
      description: queryToken('access_token'),
    });
    this.registry.registerComponent('securitySchemes', 'AuthorizationHeaderToken', {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: 'API tokens must be prepended with "token" followed by a space.',
    });
    this.registry.registerComponent('securitySchemes', 'SudoParam', {
      type: 'apiKey',
      in: 'query',
      name: 'sudo',
      description: sudo,
    });
    this.registry.registerComponent('securitySchemes', 'SudoHeader', {
      type: 'apiKey',
      in: 'header',
      name: 'Sudo',
      description: sudo,
    });
    return new OpenApiGeneratorV3(this.registry.definitions).generateDocument({
      openapi: '3.0.3',
      info: { title: 'code-hosting-api (Gitea API v1 compatible)', version: '1.0.0' },
      servers: [{ url: `${rootUrl}api/v1` }],
      security: [
        { BasicAuth: [] },
        { Token: [] },
        { AccessToken: [] },
        { AuthorizationHeaderToken: [] },
        { SudoParam: [] },
        { SudoHeader: [] },
      ],
    });
  }
}
