import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import { createHttpError, forbidden, unauthorized } from '@repo/http-errors';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { IRouter } from 'express';
import type { z, ZodObject, ZodType } from 'zod';
import { requireUser, type Caller } from '../domain/caller';
import { listOptions, type ListOptions, type PagingSettings } from '../domain/pagination';
import type { Page } from '../domain/records';
import { scopesAllow, type ScopeCategory } from '../domain/token-scopes';
import { authenticationOf } from './authentication';
import { jsonBodyOf } from './json-body';
import { setListHeaders } from './list-headers';
import { apiError } from './schemas';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** `{ org: string; username: string }` for `/users/{username}/orgs/{org}/permissions`. */
export type PathParameters<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? { [Key in Name]: string } & PathParameters<Rest>
  : unknown;

export interface RouteContext<Path extends string, Body, Query> {
  req: Request;
  res: Response;
  /** Who is asking (after authentication and sudo). */
  caller: Caller;
  body: Body;
  query: Query;
  params: PathParameters<Path>;
  /** `page` and `limit` as Gitea corrects them (list operations). */
  paging: ListOptions;
  /** Answers a list operation: the page's items as wire objects, with X-Total-Count and Link. */
  sendPage<Item>(page: Page<Item>, toWire: (item: Item) => unknown): void;
}

/** What the operations of one resource share: their OpenAPI tag and the token scope they need. */
export interface ResourceDefaults {
  tag: string;
  /** Token scope category the operation needs (reads on GET, writes otherwise). */
  scope: ScopeCategory;
}

export interface RouteDefinition<
  Path extends string,
  BodySchema extends ZodType | undefined,
  QuerySchema extends ZodObject | undefined,
> extends ResourceDefaults {
  method: Method;
  /** Gitea-style path under /api/v1, e.g. `/orgs/{org}`. */
  path: Path;
  operationId: string;
  summary: string;
  /** Served for older clients (Gitea's deprecated routes); documented as deprecated. */
  deprecated?: boolean;
  /** Open to anyone and to every token whatever its scopes (Gitea's /version): no scope check. */
  unscoped?: boolean;
  /** Only HTTP Basic with a password will do (token creation). */
  basicAuthOnly?: boolean;
  body?: BodySchema;
  /**
   * Who may act, decided before the body is read (Gitea's route middleware: reqToken, reqOrgOwnership,
   * … run before bind): a caller refused here gets 401/403/404 whatever the body. It runs only when
   * the body is refused (the handler decides the same again on its way); without it, a signed-in
   * caller is what a write needs.
   */
  authorize?: (context: { caller: Caller; params: PathParameters<Path> }) => unknown;
  /** A multipart/form-data body the handler streams itself (uploads): documented here, never parsed. */
  formData?: ZodObject;
  query?: QuerySchema;
  /**
   * Served at the site root (ROOT_URL + path) rather than under /api/v1, as Gitea serves
   * attachment downloads; authenticated the same way.
   */
  siteRoot?: boolean;
  success: {
    status: number;
    description: string;
    schema?: ZodType;
    list?: boolean;
    /** A body that is not JSON (a download): its media type, documented as binary. */
    mediaType?: string;
    /** Response headers worth documenting. */
    headers?: Record<string, string>;
  };
  errors: number[];
  handle: (
    context: RouteContext<
      Path,
      BodySchema extends ZodType ? z.infer<BodySchema> : undefined,
      QuerySchema extends ZodObject ? z.infer<QuerySchema> : Record<string, never>
    >,
  ) => Promise<void>;
}

/** A declaration within a resource: tag and scope default to the resource's. */
export type ResourceRoute<
  Path extends string,
  BodySchema extends ZodType | undefined,
  QuerySchema extends ZodObject | undefined,
> = Omit<RouteDefinition<Path, BodySchema, QuerySchema>, keyof ResourceDefaults> & Partial<ResourceDefaults>;

/** Declares the operations of one resource (one routes/ file) with its defaults stated once. */
export interface ResourceRoutes {
  add<Path extends string, BodySchema extends ZodType | undefined, QuerySchema extends ZodObject | undefined>(
    route: ResourceRoute<Path, BodySchema, QuerySchema>,
  ): void;
}

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
   * runs before a site-root operation (authentication, mounted with /api/v1 for the others).
   */
  constructor(
    private readonly options: { rootUrl: string; paging: PagingSettings; siteMiddleware?: RequestHandler[] },
  ) {}

  /** The operations of one resource, sharing `defaults`. */
  resource(defaults: ResourceDefaults): ResourceRoutes {
    return { add: (route) => this.add({ ...defaults, ...route }) };
  }

  add<Path extends string, BodySchema extends ZodType | undefined, QuerySchema extends ZodObject | undefined>(
    route: RouteDefinition<Path, BodySchema, QuerySchema>,
  ): void {
    const { rootUrl, paging: pagingSettings } = this.options;
    const expressPath = route.path.replace(/\{(\w+)\}/g, ':$1');
    const router = route.siteRoot ? this.siteRouter : this.router;
    const middleware = route.siteRoot ? (this.options.siteMiddleware ?? []) : [];
    this.allow(router, expressPath, route.method);
    router[route.method](expressPath, ...middleware, async (req, res) => {
      const { scopes, viaBasicPassword, caller } = authenticationOf(res);
      if (route.basicAuthOnly && !viaBasicPassword) throw unauthorized('auth required');
      const mode = route.method === 'get' ? 'read' : 'write';
      if (!route.unscoped && caller.user && scopes && !scopesAllow(scopes, route.scope, mode)) {
        throw forbidden(
          `token does not have at least one of required scope(s), required=[${mode}:${route.scope}], token scope=${scopes.join(',')}`,
        );
      }
      const { authorize } = route;
      const body = route.body
        ? await readBody(req, route.body, async () => {
            if (authorize) await authorize({ caller, params: req.params as PathParameters<Path> });
            else requireUser(caller);
          })
        : undefined;
      const query = route.query ? route.query.parse(req.query) : {};
      const paging = listOptions(query as { page?: unknown; limit?: unknown }, pagingSettings);
      await route.handle({
        req,
        res,
        caller,
        body,
        query,
        params: req.params,
        paging,
        sendPage(page, toWire) {
          setListHeaders(req, res, rootUrl, page.total, paging);
          res.json(page.items.map(toWire));
        },
      } as Parameters<typeof route.handle>[0]);
    });

    const pathParameters = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => ({
      name: match[1]!,
      in: 'path' as const,
      required: true,
      schema: { type: 'string' as const },
    }));
    const successSchema =
      route.success.schema && (route.success.list ? route.success.schema.array() : route.success.schema);
    this.registry.registerPath({
      method: route.method,
      path: route.path,
      operationId: route.operationId,
      summary: route.summary,
      ...(route.deprecated ? { deprecated: true } : {}),
      tags: [route.tag],
      ...(route.unscoped ? { security: [] } : {}),
      parameters: pathParameters,
      ...(route.siteRoot ? { servers: [{ url: rootUrl }] } : {}),
      request: {
        ...(route.query ? { query: route.query } : {}),
        ...(route.body
          ? { body: { required: true, content: { 'application/json': { schema: route.body } } } }
          : {}),
        ...(route.formData
          ? { body: { required: true, content: { 'multipart/form-data': { schema: route.formData } } } }
          : {}),
      },
      responses: {
        [route.success.status]: {
          description: route.success.description,
          ...(route.success.list
            ? {
                headers: {
                  'X-Total-Count': { schema: { type: 'integer' }, description: 'total number of items' },
                  Link: { schema: { type: 'string' }, description: 'next/last/first/prev pages' },
                },
              }
            : {}),
          ...(route.success.headers
            ? {
                headers: Object.fromEntries(
                  Object.entries(route.success.headers).map(([name, description]) => [
                    name,
                    { schema: { type: 'string' }, description },
                  ]),
                ),
              }
            : {}),
          ...(successSchema ? { content: { 'application/json': { schema: successSchema } } } : {}),
          ...(route.success.mediaType
            ? { content: { [route.success.mediaType]: { schema: { type: 'string', format: 'binary' } } } }
            : {}),
        },
        ...Object.fromEntries(
          [...route.errors, ...(route.body ? [415] : [])].map((status) => [
            status,
            {
              description: errorDescriptions[status] ?? 'error',
              content: { 'application/json': { schema: apiError } },
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
        router.all(expressPath, (req, res) => {
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
    // has a second factor), so Swagger UI's Authorize offers each of them.
    const deprecatedQueryToken =
      'Deprecated in Gitea (removal announced for 1.23); use AuthorizationHeaderToken instead.';
    const sudo = 'Sudo API request as the user provided as the key. Admin privileges are required.';
    this.registry.registerComponent('securitySchemes', 'BasicAuth', { type: 'http', scheme: 'basic' });
    this.registry.registerComponent('securitySchemes', 'Token', {
      type: 'apiKey',
      in: 'query',
      name: 'token',
      description: deprecatedQueryToken,
    });
    this.registry.registerComponent('securitySchemes', 'AccessToken', {
      type: 'apiKey',
      in: 'query',
      name: 'access_token',
      description: deprecatedQueryToken,
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
