import { Router } from 'express';
import { buildOpenApiDocument } from './openapi-document';

export function openApiRoute(): Router {
  // Generated once: the schemas do not change while the process runs.
  const document = JSON.stringify(buildOpenApiDocument());
  const router = Router();
  router.get('/_projects/openapi3.json', (_req, res) => {
    res.type('application/json').send(document);
  });
  return router;
}
