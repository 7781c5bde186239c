import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { createHttpError } from '@repo/http-errors';
import express, { Router, type Request, type Response } from 'express';
import type { z, ZodObject, ZodType } from 'zod';
import type { Caller } from '../domain/caller';
import { authenticationOf } from './authentication';
import type { RepeatableList } from './body-codecs';
import { BODY_MEDIA_TYPES, readBody, sendRepresentation, streamListRepresentation } from './negotiation';
import { representationSchemas, type RepresentationName, type RepresentationOf } from './representations';
import { VersionQuery } from './schemas';
import { singleValuedQuery } from './single-valued-query';

type Method = 'get' | 'post' | 'put' | 'delete';

export type RequestRepresentation =
  'CreateProjectRequest' | 'UpdateProjectBaseRequest' | 'UpdateProjectSettingsRequest';
export type ResponseRepresentation = Exclude<RepresentationName, RequestRepresentation | 'Error'>;

/** Response headers as the OpenAPI document lists them. */
export type ResponseHeaders = Record<
  string,
  { description?: string; schema: { type: 'string'; enum?: string[] } }
>;

type Parsed<Schema> = Schema extends ZodObject ? z.infer<Schema> : Record<string, never>;

export interface RouteContext<Params, Query, Body, Headers, Result> {
  req: Request;
  res: Response;
  /** The authenticated caller (every operation is behind the bearer token check). */
  caller: Caller;
  params: Params;
  query: Query;
  body: Body;
  headers: Headers;
  /** Sends the declared response representation in the negotiated format. */
  send(value: Result, options?: { etag?: string }): void;
  /** Streams the declared list representation: `field` holds the items of `list`. */
  stream(field: string, list: RepeatableList): Promise<void>;
}

/** What the caller must be: every operation takes a bearer JWT (authentication.ts checks it before the table). */
export interface RouteAuth {
  scheme: 'bearer';
}

/** One operation, declared once: the Express route, the `Allow` map (405, OPTIONS) and the OpenAPI entry come from it. */
export interface RouteDefinition<
  Params extends ZodObject | undefined,
  Query extends ZodObject | undefined,
  Body extends RequestRepresentation | undefined,
  Headers extends ZodObject | undefined,
  Result extends ResponseRepresentation | undefined,
> {
  method: Method;
  /** OpenAPI-style path, e.g. `/projects/{uid}`. */
  path: string;
  operationId: string;
  /** The one line the docs page shows beside the path. */
  summary: string;
  params?: Params;
  query?: Query;
  /** The request body's representation, in JSON, XML or gob by Content-Type. */
  body?: Body;
  /** Header names as the document spells them; a repeated header reads as one comma-joined value. */
  headers?: Headers;
  response: {
    status: number;
    description: string;
    headers?: ResponseHeaders;
    representation?: Result;
  };
  errors: number[];
  auth: RouteAuth;
  /** The error for path parameters that fail their schema; a 400 naming them when not given. */
  malformedParams?: () => Error;
  /** 304 on a current If-None-Match. */
  notModified?: { description: string; headers: ResponseHeaders };
  handle(
    context: RouteContext<
      Parsed<Params>,
      Parsed<Query>,
      Body extends RequestRepresentation ? RepresentationOf<Body> : undefined,
      Parsed<Headers>,
      Result extends ResponseRepresentation ? RepresentationOf<Result> : never
    >,
  ): Promise<void>;
}

type AnyRoute = RouteDefinition<
  ZodObject | undefined,
  ZodObject | undefined,
  RequestRepresentation | undefined,
  ZodObject | undefined,
  ResponseRepresentation | undefined
>;

const errorDescriptions: Record<number, string> = {
  400: 'bad request',
  401: 'missing or invalid token',
  403: 'the caller may view the project but not do this',
  404: 'resource not found (or not visible to the caller)',
  406: 'no acceptable response media type',
  409: 'conflict',
  412: 'If-Match does not match the current ETag',
  415: 'unsupported request media type',
  500: 'internal server error',
  503: 'service unavailable',
};

const BODY_LIMIT = '1mb';
// Raw bytes only; negotiation.ts decodes them by Content-Type.
const rawBody = express.raw({ type: () => true, limit: BODY_LIMIT });

/** Every request and response body comes in each media type a codec reads and writes. */
function inEveryMediaType(schema: ZodType) {
  return Object.fromEntries(BODY_MEDIA_TYPES.map((mediaType) => [mediaType, { schema }]));
}

function headerValues(req: Request, schema: ZodObject): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.keys(schema.shape).map((name) => {
      const value = req.headers[name.toLowerCase()];
      return [name, Array.isArray(value) ? value.join(', ') : value];
    }),
  );
}

function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** The operations of the service, each declared once. */
export class RouteTable {
  private readonly routes: AnyRoute[] = [];

  add<
    Params extends ZodObject | undefined,
    Query extends ZodObject | undefined,
    Body extends RequestRepresentation | undefined,
    Headers extends ZodObject | undefined,
    Result extends ResponseRepresentation | undefined,
  >(route: RouteDefinition<Params, Query, Body, Headers, Result>): void {
    this.routes.push(route as unknown as AnyRoute);
  }

  /** The declared methods of each path, in Express's path syntax, in declaration order. */
  private allowedMethods(): Map<string, string[]> {
    const allowed = new Map<string, string[]>();
    for (const route of this.routes) {
      const path = expressPath(route.path);
      allowed.set(path, [...(allowed.get(path) ?? []), route.method.toUpperCase()]);
    }
    return allowed;
  }

  /**
   * What the paths allow, before any credentials are asked for: `OPTIONS` answers 204 and a
   * method no operation declares 405, both with `Allow`. The route table is public (it is the
   * OpenAPI document), so neither needs a token.
   */
  methods(): Router {
    const router = Router();
    for (const [path, methods] of this.allowedMethods()) {
      const allow = methods.join(', ');
      router.all(path, (req, res, next) => {
        const method = req.method === 'HEAD' ? 'GET' : req.method;
        if (methods.includes(method)) return next();
        if (method === 'OPTIONS') {
          res.setHeader('Allow', allow);
          res.status(204).end();
          return;
        }
        throw createHttpError(405, 'method not allowed', { headers: { Allow: allow } });
      });
    }
    return router;
  }

  /** The Express routes of the operations; methods() answers the others. */
  router(): Router {
    const router = Router();
    for (const route of this.routes) {
      const path = expressPath(route.path);
      const handlers = route.body ? [rawBody] : [];
      router[route.method](path, ...handlers, (req, res) => this.run(route, req, res));
    }
    return router;
  }

  /**
   * Parses query (each declared parameter once, singleValuedQuery), headers, path and body in
   * that order (the first failure answers), then handles.
   */
  private async run(route: AnyRoute, req: Request, res: Response): Promise<void> {
    const { response } = route;
    // Express parses the query string at every read of req.query: once here.
    const rawQuery = req.query;
    singleValuedQuery(rawQuery, Object.keys((route.query ?? VersionQuery).shape));
    // `v`, the API version every operation takes, is checked before anything else.
    const version = VersionQuery.parse(rawQuery);
    const query = !route.query ? {} : route.query === VersionQuery ? version : route.query.parse(rawQuery);
    const headers = route.headers ? route.headers.parse(headerValues(req, route.headers)) : {};
    let params = {};
    if (route.params) {
      const result = route.params.safeParse(req.params);
      if (!result.success) throw route.malformedParams?.() ?? result.error;
      params = result.data;
    }
    const body = route.body ? representationSchemas[route.body].parse(readBody(req, route.body)) : undefined;
    const representation = response.representation;
    await route.handle({
      req,
      res,
      caller: authenticationOf(res).caller,
      params,
      query,
      body,
      headers,
      send(value, options) {
        if (!representation) throw new Error(`${route.operationId} declares no response body`);
        if (options?.etag !== undefined) res.setHeader('ETag', options.etag);
        sendRepresentation(req, res, response.status, representation, value);
      },
      stream(field, list) {
        if (!representation) throw new Error(`${route.operationId} declares no response body`);
        return streamListRepresentation(req, res, representation, field, list);
      },
    } as Parameters<AnyRoute['handle']>[0]);
  }

  /** The OpenAPI 3.1 document, from the same zod schemas that validate requests. */
  document(info: {
    title: string;
    version: string;
    description: string;
  }): ReturnType<OpenApiGeneratorV31['generateDocument']> {
    const registry = new OpenAPIRegistry();
    const bearer = registry.registerComponent('securitySchemes', 'jwt_header_Authorization', {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    const security = { bearer: [{ [bearer.name]: [] }] } satisfies Record<RouteAuth['scheme'], unknown>;
    for (const route of this.routes) {
      const { method, path, operationId, summary, response, notModified, errors } = route;
      registry.registerPath({
        method,
        path,
        operationId,
        summary,
        security: security[route.auth.scheme],
        request: {
          ...(route.query ? { query: route.query } : {}),
          ...(route.params ? { params: route.params } : {}),
          ...(route.headers ? { headers: route.headers } : {}),
          ...(route.body
            ? { body: { content: inEveryMediaType(representationSchemas[route.body]), required: true } }
            : {}),
        },
        responses: {
          [response.status]: {
            description: response.description,
            ...(response.headers ? { headers: response.headers } : {}),
            ...(response.representation
              ? { content: inEveryMediaType(representationSchemas[response.representation]) }
              : {}),
          },
          ...(notModified ? { 304: notModified } : {}),
          ...Object.fromEntries(
            errors.map((status) => [
              String(status),
              {
                description: errorDescriptions[status] ?? 'error',
                content: inEveryMediaType(representationSchemas.Error),
              },
            ]),
          ),
        },
      });
    }
    return new OpenApiGeneratorV31(registry.definitions).generateDocument({ openapi: '3.1.0', info });
  }
}
