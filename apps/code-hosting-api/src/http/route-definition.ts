import type { Request, Response } from 'express';
import type { ZodObject, ZodType, z } from 'zod';
import type { Caller } from '../domain/caller';
import type { ListOptions } from '../domain/pagination';
import type { Page } from '../domain/records';
import type { ScopeCategory } from '../domain/token-scopes';

// What an operation is declared with (RouteDefinition): the route table (route-table.ts) makes the
// Express route, the Allow answers and the OpenAPI entry of each from it.

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

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

export type AnyRoute = RouteDefinition<
  string,
  ZodObject | undefined,
  ZodObject | undefined,
  ZodType | undefined
>;
