// Generated from apps/project-service/src/http/docs/api-docs.ts by `npm run sync:copies`: edit that file, not this copy.
import path from 'node:path';
import { Router, type Response } from 'express';

/** Where the documentation page is served and which OpenAPI document it shows. */
export interface ApiDocsOptions {
  /** The page's path, e.g. `/api/swagger`; its assets are served under `<pagePath>/`. */
  pagePath: string;
  /** The path of the OpenAPI document on this service, e.g. `/swagger.v1.json`. */
  documentPath: string;
  /** The page's title. */
  title: string;
}

// Swagger UI's own files, shipped by the swagger-ui-dist package: nothing is loaded from elsewhere.
const distFolder = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS = new Set(['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png', 'favicon-16x16.png']);
const INIT_SCRIPT = 'api-docs-init.js';

/**
 * Everything the page may load comes from this service; no inline script or style, no eval.
 * Swagger UI's icons are data: SVGs in its stylesheet; its requests (the document, "Try it out")
 * go to this service only.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// Starts Swagger UI on the page's element with the document its data attribute names, with no
// credentials preset and nothing kept between visits (a person types the token into Authorize).
const initScript = `'use strict';
(function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: new URL(root.getAttribute('data-document'), window.location.href).href,
    domNode: root,
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    validatorUrl: null,
    persistAuthorization: false,
    withCredentials: false,
  });
})();
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function secureHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-cache');
}

/**
 * The API documentation as a page a person reads in a browser: Swagger UI over the service's
 * own OpenAPI document. The page and its assets need no credentials; links are relative, so the
 * page works behind a proxy that serves the service under a path prefix.
 */
export function apiDocsRoutes({ pagePath, documentPath, title }: ApiDocsOptions): Router {
  const folder = path.posix.dirname(pagePath);
  const assetsBase = `${path.posix.basename(pagePath)}/`;
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${assetsBase}swagger-ui.css">
<link rel="icon" type="image/png" href="${assetsBase}favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui" data-document="${escapeHtml(path.posix.relative(folder, documentPath))}"></div>
<script src="${assetsBase}swagger-ui-bundle.js"></script>
<script src="${assetsBase}${INIT_SCRIPT}"></script>
</body>
</html>
`;
  // Strict: `<pagePath>/` would resolve the relative links one folder too deep.
  const router = Router({ strict: true });
  router.get(pagePath, (_req, res) => {
    secureHeaders(res);
    res.type('text/html').send(page);
  });
  router.get(`${pagePath}/${INIT_SCRIPT}`, (_req, res) => {
    secureHeaders(res);
    res.type('text/javascript').send(initScript);
  });
  router.get(`${pagePath}/:asset`, (req, res, next) => {
    const asset = req.params['asset'];
    if (asset === undefined || !ASSETS.has(asset)) return next();
    secureHeaders(res);
    res.sendFile(asset, { root: distFolder, dotfiles: 'deny' }, (error) => {
      if (error) next(error);
    });
  });
  return router;
}
