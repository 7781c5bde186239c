import type { TestApp } from '../test-app';

export interface ApiDocsPageOptions {
  /** The app under test. */
  service: TestApp;
  /** Where the app serves its documentation page. */
  pagePath: string;
  /** Where the app serves the OpenAPI document the page shows. */
  documentPath: string;
}

/** The keys of an OpenAPI path item that are operations. */
const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The page's own URL, its HTML, and the URLs it loads (scripts, stylesheets, icons). */
async function loadPage(service: TestApp, pagePath: string) {
  const response = await service.request.get(pagePath).expect(200);
  const html = response.text;
  const pageUrl = `${service.baseUrl}${pagePath}`;
  const loaded = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map(
    (match) => new URL(match[1]!, pageUrl),
  );
  return { response, html, pageUrl, loaded };
}

/** The page that shows the service's OpenAPI document: what a browser is told, and what it may load. */
export function describeApiDocsPage({ service, pagePath, documentPath }: ApiDocsPageOptions): void {
  describe(`the documentation page at ${pagePath}`, () => {
    it('is HTML served without credentials, under a Content-Security-Policy with no inline or eval', async () => {
      const { response } = await loadPage(service, pagePath);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      const policy = Object.fromEntries(
        String(response.headers['content-security-policy'])
          .split(';')
          .map((directive) => directive.trim().split(/\s+/))
          .map(([name, ...values]) => [name, values]),
      );
      expect(policy['default-src']).toEqual(["'none'"]);
      expect(policy['script-src']).toEqual(["'self'"]);
      expect(policy['style-src']).toEqual(["'self'"]);
      expect(policy['connect-src']).toEqual(["'self'"]);
      expect(policy['frame-ancestors']).toEqual(["'none'"]);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    });

    it('has no inline script or style: everything it loads is a file of this service, served without credentials', async () => {
      const { html, loaded } = await loadPage(service, pagePath);
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/<style|\sstyle=|\son\w+=/i);
      expect(loaded.length).toBeGreaterThanOrEqual(3);
      for (const url of loaded) {
        expect(url.origin).toBe(service.baseUrl);
        const asset = await service.request.get(url.pathname);
        expect({ path: url.pathname, status: asset.status }).toEqual({ path: url.pathname, status: 200 });
        expect(asset.headers['content-type']).toMatch(/^(text\/javascript|text\/css|image\/png)/);
      }
    });

    it('shows the service’s own OpenAPI document, with no credential filled in', async () => {
      const { html, pageUrl, loaded } = await loadPage(service, pagePath);
      const document = html.match(/data-document="([^"]+)"/);
      expect(new URL(document![1]!, pageUrl).href).toBe(`${service.baseUrl}${documentPath}`);
      const scripts = await Promise.all(
        loaded.filter((url) => url.pathname.endsWith('.js')).map((url) => service.request.get(url.pathname)),
      );
      const init = scripts.find((script) => script.text.includes('SwaggerUIBundle({'));
      expect(init).toBeDefined();
      expect(init!.text).not.toMatch(/preauthorize|['"]authorization['"]|api_?key|token/i);
      expect(init!.text).toMatch(/persistAuthorization: false/);
      expect(init!.text).toMatch(/validatorUrl: null/);
    });

    it('gives every operation of the document a summary, the line the page shows beside its path', async () => {
      const document = await service.request.get(documentPath).expect(200);
      const operations = Object.entries(
        document.body.paths as Record<string, Record<string, unknown>>,
      ).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => OPERATION_METHODS.includes(method))
          .map(([method, operation]) => ({
            operation: `${method.toUpperCase()} ${path}`,
            summary: (operation as { summary?: unknown }).summary,
          })),
      );
      expect(operations.length).toBeGreaterThan(0);
      expect(
        operations.filter(({ summary }) => typeof summary !== 'string' || summary.trim() === ''),
      ).toEqual([]);
    });

    it.each([
      'index.html',
      'swagger-initializer.js',
      'swagger-ui-bundle.js.map',
      'package.json',
      '..%2Fpackage.json',
    ])('serves no other file of the Swagger UI package (%s)', async (file) => {
      await service.request.get(`${pagePath}/${file}`).expect(404);
    });
  });
}
