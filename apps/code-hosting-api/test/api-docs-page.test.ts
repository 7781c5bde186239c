import { describeApiDocsPage } from '@repo/testing';
import { useCodeHostingApi } from './app';

// The page Gitea serves at /api/swagger (and every error body's url), over /swagger.v1.json.
// api-docs-browser.test.ts drives it in Chromium.
describeApiDocsPage({
  service: useCodeHostingApi(),
  pagePath: '/api/swagger',
  documentPath: '/swagger.v1.json',
});
