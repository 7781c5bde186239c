import { Router } from 'express';
import type { RouteTable } from './route-table';

export function openApiRoute(routes: RouteTable): Router {
  // Generated once: the operations do not change while the process runs.
  const document = JSON.stringify(
    routes.document({
      title: 'project-service',
      version: '0.0.1',
      description: 'Projects arranged in a hierarchy, with base information and settings.',
    }),
  );
  const router = Router();
  router.get('/_projects/openapi3.json', (_req, res) => {
    res.type('application/json').send(document);
  });
  return router;
}
