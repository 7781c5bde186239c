import { describeApiDocsPage } from '@repo/testing';
import { useProjectService } from './app';

// The page beside /_projects/openapi3.json that shows it.
// api-docs-browser.test.ts drives it in Chromium.
describeApiDocsPage({
  service: useProjectService(),
  pagePath: '/_projects/docs',
  documentPath: '/_projects/openapi3.json',
});
