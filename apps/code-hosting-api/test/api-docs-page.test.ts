import { useCodeHostingApi } from './app';

// The page Gitea serves at /api/swagger (and every error body's url), over /swagger.v1.json.
// api-docs-browser.test.ts drives it in Chromium; this checks what a browser is told.

const service = useCodeHostingApi();
const PAGE_PATH = '/api/swagger';
const DOCUMENT_PATH = '/swagger.v1.json';

/** The page's own URL, its HTML, and the URLs it loads (scripts, stylesheets, icons). */
async function loadPage() {
  const response = await service.request.get(PAGE_PATH).expect(200);
  const html = response.text;
  const pageUrl = `${service.baseUrl}${PAGE_PATH}`;
  const loaded = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map(
    (match) => new URL(match[1]!, pageUrl),
  );
  return { response, html, pageUrl, loaded };
}

describe(`the documentation page at ${PAGE_PATH}`, () => {
  it('is HTML served without credentials, under a Content-Security-Policy with no inline or eval', async () => {
    const { response } = await loadPage();
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
    const { html, loaded } = await loadPage();
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
    const { html, pageUrl, loaded } = await loadPage();
    const document = html.match(/data-document="([^"]+)"/);
    expect(new URL(document![1]!, pageUrl).href).toBe(`${service.baseUrl}${DOCUMENT_PATH}`);
    const scripts = await Promise.all(
      loaded.filter((url) => url.pathname.endsWith('.js')).map((url) => service.request.get(url.pathname)),
    );
    const init = scripts.find((script) => script.text.includes('SwaggerUIBundle({'));
    expect(init).toBeDefined();
    expect(init!.text).not.toMatch(/preauthorize|['"]authorization['"]|api_?key|token/i);
    expect(init!.text).toMatch(/persistAuthorization: false/);
    expect(init!.text).toMatch(/validatorUrl: null/);
  });

  it.each([
    'index.html',
    'swagger-initializer.js',
    'swagger-ui-bundle.js.map',
    'package.json',
    '..%2Fpackage.json',
  ])('serves no other file of the Swagger UI package (%s)', async (file) => {
    await service.request.get(`${PAGE_PATH}/${file}`).expect(404);
  });
});
