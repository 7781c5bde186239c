import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import { forbidden, unauthorized } from '@repo/http-errors';
import { Router, type Request, type Response } from 'express';
import type { IRouter } from 'express';
import type { z, ZodObject, ZodType } from 'zod';
import { scopesAllow, type ScopeCategory } from '../domain/token-scopes';
import { authenticationOf } from './authentication';
import { apiError } from './schemas';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface RouteContext<Body, Query> {
  req: Request;
  res: Response;
  body: Body;
  query: Query;
  params: Record<string, string>;
}

export interface RouteDefinition<
  BodySchema extends ZodType | undefined,
  QuerySchema extends ZodObject | undefined,
> {
  method: Method;
  /** Gitea-style path under /api/v1, e.g. `/orgs/{org}`. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** Token scope category the operation needs (reads on GET, writes otherwise). */
  scope: ScopeCategory;
  /** Only HTTP Basic with a password will do (token creation). */
  basicAuthOnly?: boolean;
  body?: BodySchema;
  query?: QuerySchema;
  success: { status: number; description: string; schema?: ZodType; list?: boolean };
  errors: number[];
  handle: (
    context: RouteContext<
      BodySchema extends ZodType ? z.infer<BodySchema> : undefined,
      QuerySchema extends ZodObject ? z.infer<QuerySchema> : Record<string, never>
    >,
  ) => Promise<void>;
}

const errorDescriptions: Record<number, string> = {
  400: 'bad request',
  401: 'authentication required or invalid',
  403: 'forbidden',
  404: 'not found',
  409: 'conflict',
  422: 'validation error',
  423: 'repository is archived',
};

/** One declaration per operation: the Express route and its OpenAPI description come from it. */
export class RouteTable {
  readonly router: IRouter = Router();
  private readonly registry = new OpenAPIRegistry();

  add<BodySchema extends ZodType | undefined, QuerySchema extends ZodObject | undefined>(
    route: RouteDefinition<BodySchema, QuerySchema>,
  ): void {
    const expressPath = route.path.replace(/\{(\w+)\}/g, ':$1');
    this.router[route.method](expressPath, async (req, res) => {
      const { scopes, viaBasicPassword, caller } = authenticationOf(res);
      if (route.basicAuthOnly && !viaBasicPassword) throw unauthorized('auth required');
      const mode = route.method === 'get' ? 'read' : 'write';
      if (caller.user && scopes && !scopesAllow(scopes, route.scope, mode)) {
        throw forbidden(
          `token does not have at least one of required scope(s), required=[${mode}:${route.scope}], token scope=${scopes.join(',')}`,
        );
      }
      const body = route.body ? route.body.parse(req.body ?? {}) : undefined;
      const query = route.query ? route.query.parse(req.query) : {};
      await route.handle({
        req,
        res,
        body,
        query,
        params: req.params as Record<string, string>,
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
      tags: [route.tag],
      parameters: pathParameters,
      request: {
        ...(route.query ? { query: route.query } : {}),
        ...(route.body
          ? { body: { required: true, content: { 'application/json': { schema: route.body } } } }
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
          ...(successSchema ? { content: { 'application/json': { schema: successSchema } } } : {}),
        },
        ...Object.fromEntries(
          route.errors.map((status) => [
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

  document(rootUrl: string): ReturnType<OpenApiGeneratorV3['generateDocument']> {
    this.registry.registerComponent('securitySchemes', 'AuthorizationHeaderToken', {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: 'API tokens must be prepended with "token" followed by a space.',
    });
    this.registry.registerComponent('securitySchemes', 'BasicAuth', { type: 'http', scheme: 'basic' });
    this.registry.registerComponent('securitySchemes', 'SudoHeader', {
      type: 'apiKey',
      in: 'header',
      name: 'Sudo',
    });
    return new OpenApiGeneratorV3(this.registry.definitions).generateDocument({
      openapi: '3.0.3',
      info: { title: 'code-hosting-api (Gitea API v1 compatible)', version: '1.0.0' },
      servers: [{ url: `${rootUrl}api/v1` }],
      security: [{ AuthorizationHeaderToken: [] }, { BasicAuth: [] }, { SudoHeader: [] }],
    });
  }
}
