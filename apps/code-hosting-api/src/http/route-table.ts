import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import { createHttpError, forbidden, unauthorized } from '@repo/http-errors';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { IRouter } from 'express';
import { z, type ZodObject, type ZodType } from 'zod';
import { requireUser, type Caller } from '../domain/caller';
import { listOptions, type ListOptions, type PagingSettings } from '../domain/pagination';
import type { Page } from '../domain/records';
import { scopesAllow, type ScopeCategory } from '../domain/token-scopes';
import { authenticationOf } from './authentication';
import { jsonBodyOf } from './json-body';
import { setListHeaders } from './list-headers';
import { APIError, SyncHeaders, TextParam } from './schemas';
import { settleSync, syncStatusHeader, type SyncOptions } from './x-sync';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** `{ org: string; username: string }` for `/users/{username}/orgs/{org}/permissions`. */
export type PathParameters<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? { [Key in Name]: string } & PathParameters<Rest>
  : unknown;

/** The path parameters a handler gets: what `params` makes of those it declares, the others as written. */
export type ParsedParameters<
  Path extends string,
  ParamsSchema extends ZodObject | undefined,
> = ParamsSchema extends ZodObject
  ? Omit<PathParameters<Path>, keyof z.infer<ParamsSchema>> & z.infer<ParamsSchema>
  : PathParameters<Path>;

/** Response headers as the OpenAPI document lists them. */
export type ResponseHeaders = Record<
  string,
  { description?: string; schema: { type: 'string'; enum?: string[] } }
>;

export interface RouteContext<Params, Query, Body> {
  req: Request;
  res: Response;
  /** Who is asking (after authentication and sudo). */
  caller: Caller;
  params: Params;
  query: Query;
  body: Body;
  /** `page` and `limit` as Gitea corrects them (list operations). */
  paging: ListOptions;
  /** Answers a list operation: the page's items as wire objects, with X-Total-Count and Link. */
  sendPage<Item>(page: Page<Item>, toWire: (item: Item) => unknown): void;
  /** X-Sync (an operation with `xSync`): called once the write committed, before the answer. */
  settleSync(): Promise<void>;
}

/** What the caller must be. */
export interface RouteAuth<Params> {
  /** Which credentials will do: `basic` is HTTP Basic with a password (token creation); any form when not given. */
  scheme?: 'basic';
  /** Token scope category the operation needs (reads on GET, writes otherwise). */
  scope: ScopeCategory;
  /** Open to anyone and to every token whatever its scopes (Gitea's /version): no scope check. */
  unscoped?: boolean;
  /**
   * Who may act, decided before the body is read (Gitea's route middleware: reqToken, reqOrgOwnership,
   * … run before bind): a caller refused here gets 401/403/404 whatever the body. It runs only when
   * the body is refused (the handler decides the same again on its way); without it, a signed-in
   * caller is what a write needs.
   */
  authorize?: (context: { caller: Caller; params: Params }) => unknown;
}

/** What the operations of one resource share: their OpenAPI tag and the token scope they need. */
export interface ResourceDefaults {
  tag: string;
  scope: ScopeCategory;
}

export interface RouteDefinition<
  Path extends string,
  ParamsSchema extends ZodObject | undefined,
  QuerySchema extends ZodObject | undefined,
  BodySchema extends ZodType | undefined,
> {
  method: Method;
  /** Gitea-style path under /api/v1, e.g. `/orgs/{org}`. */
  path: Path;
  operationId: string;
  summary: string;
  /** Schemas of path parameters that are not names or other text; the others are TextParam. */
  params?: ParamsSchema;
  query?: QuerySchema;
  body?: BodySchema;
  response: {
    status: number;
    description: string;
    headers?: ResponseHeaders;
    schema?: ZodType;
    /** A list: `schema` is one item, answered with sendPage's paging headers. */
    list?: boolean;
    /** A body that is not JSON (a download): its media type, documented as binary. */
    mediaType?: string;
  };
  errors: number[];
  auth: RouteAuth<ParsedParameters<Path, ParamsSchema>>;
  /** OpenAPI tag. */
  tag: string;
  /** Served for older clients (Gitea's deprecated routes); documented as deprecated. */
  deprecated?: boolean;
  /**
   * The write records change events: it takes X-Sync (src/http/x-sync.ts; a value other than
   * true or false is a validation error), its handlers call `settleSync` once the write committed
   * and before answering, and both headers are documented.
   */
  xSync?: boolean;
  /** A multipart/form-data body the handler streams itself (uploads): documented here, never parsed. */
  formData?: ZodObject;
  /**
   * Served at the site root (ROOT_URL + path) rather than under /api/v1, as Gitea serves
   * attachment downloads; authenticated the same way.
   */
  siteRoot?: boolean;
  handle: (
    context: RouteContext<
      ParsedParameters<Path, ParamsSchema>,
      QuerySchema extends ZodObject ? z.infer<QuerySchema> : Record<string, never>,
      BodySchema extends ZodType ? z.infer<BodySchema> : undefined
    >,
  ) => Promise<void>;
}

/** A declaration within a resource: its tag and scope default to the resource's. */
export type ResourceRoute<
  Path extends string,
  ParamsSchema extends ZodObject | undefined,
  QuerySchema extends ZodObject | undefined,
  BodySchema extends ZodType | undefined,
> = Omit<RouteDefinition<Path, ParamsSchema, QuerySchema, BodySchema>, 'tag' | 'auth'> & {
  tag?: string;
  auth?: Partial<RouteAuth<ParsedParameters<Path, ParamsSchema>>>;
};

/** Declares the operations of one resource (one routes/ file) with its defaults stated once. */
export interface ResourceRoutes {
  add<
    Path extends string,
    ParamsSchema extends ZodObject | undefined = undefined,
    QuerySchema extends ZodObject | undefined = undefined,
    BodySchema extends ZodType | undefined = undefined,
  >(
    route: ResourceRoute<Path, ParamsSchema, QuerySchema, BodySchema>,
  ): void;
}

type AnyRoute = RouteDefinition<string, ZodObject | undefined, ZodObject | undefined, ZodType | undefined>;

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
