import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import {
  CreateProjectRequest,
  ErrorBody,
  ListProjectsQuery,
  ProjectBase,
  ProjectFull,
  ProjectList,
  ProjectSettings,
  SyncHeader,
  UidParameter,
  UpdateProjectBaseRequest,
  UpdateProjectSettingsRequest,
  VersionParameter,
} from './schemas';
import { BODY_MEDIA_TYPES } from './negotiation';
import { z } from './zod-openapi';

/** Every request and response body comes in each media type a codec reads and writes. */
function inEveryMediaType<T extends z.ZodType>(schema: T) {
  return Object.fromEntries(BODY_MEDIA_TYPES.map((mediaType) => [mediaType, { schema }]));
}

const errorStatuses: Record<number, string> = {
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

function errorResponses(statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      { description: errorStatuses[status] ?? 'error', content: inEveryMediaType(ErrorBody) },
    ]),
  );
}

const etagHeader = {
  ETag: { description: 'strong entity tag of the representation', schema: { type: 'string' as const } },
};
const versionQuery = z.object({ v: VersionParameter });
const uidPath = z.object({ uid: UidParameter });
const writeHeaders = z.object({
  'X-Sync': SyncHeader,
  'If-Match': z
    .string()
    .optional()
    .openapi({ description: 'ETag the write is conditional on (quoted, bare or *)' }),
});
const readHeaders = z.object({
  'If-None-Match': z
    .string()
    .optional()
    .openapi({ description: 'ETag of the copy the client holds; 304 when current' }),
});

function requestBody<T extends z.ZodType>(schema: T) {
  return { content: inEveryMediaType(schema), required: true };
}

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate requests. */
export function buildOpenApiDocument(): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'jwt_header_Authorization', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });
  const security = [{ [bearer.name]: [] }];
  registry.registerPath({
    method: 'get',
    path: '/projects',
    operationId: 'get-projects',
    summary: 'List the projects the caller may view, ordered by name then uid',
    security,
    request: { query: ListProjectsQuery },
    responses: {
      200: {
        description: 'the projects',
        headers: {
          'Cache-Control': { schema: { type: 'string' } },
          Link: { description: 'next page, when paging', schema: { type: 'string' } },
        },
        content: inEveryMediaType(ProjectList),
      },
      ...errorResponses([400, 401, 406, 500, 503]),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/projects',
    operationId: 'create-project',
    summary: 'Create a project under a parent the caller may write',
    security,
    request: {
      query: versionQuery,
      headers: writeHeaders.pick({ 'X-Sync': true }),
      body: requestBody(CreateProjectRequest),
    },
    responses: {
      201: {
        description: 'created',
        headers: etagHeader,
        content: inEveryMediaType(ProjectFull),
      },
      ...errorResponses([400, 401, 403, 406, 409, 415, 500, 503]),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/projects/{uid}',
    operationId: 'get-one-project-base',
    security,
    request: { query: versionQuery, params: uidPath, headers: readHeaders },
    responses: {
      200: {
        description: 'the base representation',
        headers: etagHeader,
        content: inEveryMediaType(ProjectBase),
      },
      304: { description: 'not modified', headers: etagHeader },
      ...errorResponses([400, 401, 404, 406, 500, 503]),
    },
  });
  registry.registerPath({
    method: 'put',
    path: '/projects/{uid}',
    operationId: 'update-project-base',
    security,
    request: {
      query: versionQuery,
      params: uidPath,
      headers: writeHeaders,
      body: requestBody(UpdateProjectBaseRequest),
    },
    responses: {
      200: {
        description: 'updated',
        headers: etagHeader,
        content: inEveryMediaType(ProjectBase),
      },
      ...errorResponses([400, 401, 403, 404, 406, 409, 412, 415, 500, 503]),
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/projects/{uid}',
    operationId: 'delete-project',
    security,
    request: { query: versionQuery, params: uidPath, headers: writeHeaders },
    responses: {
      204: { description: 'deleted' },
      ...errorResponses([400, 401, 403, 404, 409, 412, 500, 503]),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/projects/{uid}/settings',
    operationId: 'get-one-project-settings',
    security,
    request: { query: versionQuery, params: uidPath, headers: readHeaders },
    responses: {
      200: {
        description: 'the settings',
        headers: etagHeader,
        content: inEveryMediaType(ProjectSettings),
      },
      304: { description: 'not modified', headers: etagHeader },
      ...errorResponses([400, 401, 403, 404, 406, 500, 503]),
    },
  });
  registry.registerPath({
    method: 'put',
    path: '/projects/{uid}/settings',
    operationId: 'update-project-settings',
    security,
    request: {
      query: versionQuery,
      params: uidPath,
      headers: writeHeaders,
      body: requestBody(UpdateProjectSettingsRequest),
    },
    responses: {
      200: {
        description: 'updated',
        headers: etagHeader,
        content: inEveryMediaType(ProjectSettings),
      },
      ...errorResponses([400, 401, 403, 404, 406, 412, 415, 500, 503]),
    },
  });
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'project-service',
      version: '0.0.1',
      description: 'Projects arranged in a hierarchy, with base information and settings.',
    },
  });
}
