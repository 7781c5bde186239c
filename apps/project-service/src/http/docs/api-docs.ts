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
  /**
   * The service's AsyncAPI document of its events, when it has one: the page links to it, and
   * `<pagePath>/events` lists its messages as HTML (Swagger UI shows OpenAPI only).
   */
  events?: {
    /** Where the service serves the document, e.g. `/asyncapi.json`. */
    documentPath: string;
    /** The document itself (AsyncAPI 3.0, plain JSON). */
    document: object;
  };
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

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `value`, or what its local reference (`{"$ref": "#/components/…"}`) points at in `document`. */
function resolved(document: JsonRecord, value: unknown, depth = 0): unknown {
  if (!isRecord(value) || depth > 32) return value;
  const reference = text(value['$ref']);
  if (reference === undefined || !reference.startsWith('#/')) return value;
  const target = reference
    .slice(2)
    .split('/')
    .map((token) => decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), document);
  return resolved(document, target, depth + 1);
}

/** One message of one channel, as the events page shows it. */
interface EventEntry {
  anchor: string;
  address: string;
  type: string;
  summary: string;
  /** The names of the message's headers. */
  headers: string[];
  /** The payload's `data` schema (a CloudEvent's), else the whole payload's. */
  schemaName: string;
  schema: unknown;
}

/** Every message of every channel of an AsyncAPI 3 document, in the document's order. */
function eventEntries(document: JsonRecord): EventEntry[] {
  const channels = resolved(document, document['channels']);
  if (!isRecord(channels)) return [];
  return Object.entries(channels).flatMap(([channelId, channelValue]) => {
    const channel = resolved(document, channelValue);
    if (!isRecord(channel)) return [];
    const messages = resolved(document, channel['messages']);
    if (!isRecord(messages)) return [];
    const single = Object.keys(messages).length === 1;
    return Object.entries(messages).flatMap(([messageId, messageValue]) => {
      const message = resolved(document, messageValue);
      if (!isRecord(message)) return [];
      const payload = resolved(document, message['payload']);
      const properties = isRecord(payload) ? resolved(document, payload['properties']) : undefined;
      const typeSchema = isRecord(properties) ? resolved(document, properties['type']) : undefined;
      const data = isRecord(properties) ? properties['data'] : undefined;
      const headers = resolved(document, message['headers']);
      const headerProperties = isRecord(headers) ? resolved(document, headers['properties']) : undefined;
      return [
        {
          anchor: single ? channelId : `${channelId}-${messageId}`,
          address: text(channel['address']) ?? '',
          type:
            (isRecord(typeSchema) ? text(typeSchema['const']) : undefined) ??
            text(message['name']) ??
            messageId,
          summary: text(message['summary']) ?? text(channel['summary']) ?? '',
          headers: isRecord(headerProperties) ? Object.keys(headerProperties) : [],
          schemaName: data === undefined ? 'payload' : 'data',
          schema: resolved(document, data ?? payload ?? {}),
        },
      ];
    });
  });
}

/** Escaped text, with Markdown's `code` spans as <code>. */
function prose(value: string): string {
  return escapeHtml(value).replace(/`([^`]+)`/g, '<code>$1</code>');
}

const STYLESHEET = 'api-docs.css';
const stylesheet = `.api-docs-links { font-family: sans-serif; font-size: 14px; padding: 10px 20px; border-bottom: 1px solid #d9d9d9; }
.api-docs-links a { margin-right: 1.5em; color: #3b4151; }
.api-docs-events { font-family: sans-serif; color: #3b4151; margin: 0; }
.api-docs-events main { max-width: 1000px; margin: 0 auto; padding: 0 20px 40px; }
.api-docs-events section { border-top: 1px solid #d9d9d9; margin-top: 24px; }
.api-docs-events dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; }
.api-docs-events dd { margin: 0; }
.api-docs-events pre { background: #f6f8fa; padding: 12px; overflow: auto; font-size: 13px; }
`;

/** The events page: each message of the AsyncAPI document with its subject, type, summary and schema. */
function eventsPage(title: string, pagePath: string, documentPath: string, document: JsonRecord): string {
  // The page is `<pagePath>/events`: relative links resolve from the folder `<pagePath>/`.
  const info = resolved(document, document['info']);
  const heading = (isRecord(info) ? text(info['title']) : undefined) ?? title;
  const description = (isRecord(info) ? text(info['description']) : undefined) ?? '';
  const servers = resolved(document, document['servers']);
  const entries = eventEntries(document);
  const serverItems = isRecord(servers)
    ? Object.values(servers)
        .map((server) => resolved(document, server))
        .filter(isRecord)
        .map(
          (server) =>
            `<li><code>${escapeHtml(text(server['protocol']) ?? '')}://${escapeHtml(text(server['host']) ?? '')}</code>` +
            `${server['description'] === undefined ? '' : ` ${prose(text(server['description']) ?? '')}`}</li>`,
        )
    : [];
  const sections = entries.map(
    (entry) => `<section id="${escapeHtml(entry.anchor)}">
<h2><code>${escapeHtml(entry.type)}</code></h2>
<dl>
<dt>Subject</dt><dd><code>${escapeHtml(entry.address)}</code></dd>
<dt>Type</dt><dd><code>${escapeHtml(entry.type)}</code></dd>
<dt>Summary</dt><dd>${prose(entry.summary)}</dd>
<dt>Headers</dt><dd>${entry.headers.map((name) => `<code>${escapeHtml(name)}</code>`).join(', ')}</dd>
</dl>
<h3><code>${entry.schemaName}</code> schema</h3>
<pre>${escapeHtml(JSON.stringify(entry.schema, null, 2))}</pre>
</section>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}: change events</title>
<link rel="stylesheet" href="${STYLESHEET}">
<link rel="icon" type="image/png" href="favicon-32x32.png" sizes="32x32">
</head>
<body class="api-docs-events">
<nav class="api-docs-links"><a href="../${escapeHtml(path.posix.basename(pagePath))}">HTTP API (OpenAPI)</a><a href="${escapeHtml(path.posix.relative(pagePath, documentPath))}">Change events (AsyncAPI 3.0)</a></nav>
<main>
<h1>${escapeHtml(heading)}: change events</h1>
${description
  .split(/\n\s*\n/)
  .filter((paragraph) => paragraph.trim() !== '')
  .map((paragraph) => `<p>${prose(paragraph)}</p>`)
  .join('\n')}
<h2>Servers</h2>
<ul>
${serverItems.join('\n')}
</ul>
<h2>Event types</h2>
<ul>
${entries.map((entry) => `<li><a href="#${escapeHtml(entry.anchor)}"><code>${escapeHtml(entry.type)}</code></a></li>`).join('\n')}
</ul>
${sections.join('\n')}
</main>
</body>
</html>
`;
}

/**
 * The API documentation as a page a person reads in a browser: Swagger UI over the service's
 * own OpenAPI document. The page and its assets need no credentials; links are relative, so the
 * page works behind a proxy that serves the service under a path prefix. With `events`, the page
 * links to the service's AsyncAPI document and to `<pagePath>/events`, which lists its events.
 */
export function apiDocsRoutes({ pagePath, documentPath, title, events }: ApiDocsOptions): Router {
  const folder = path.posix.dirname(pagePath);
  const assetsBase = `${path.posix.basename(pagePath)}/`;
  const eventsLinks = events
    ? `<link rel="stylesheet" href="${assetsBase}${STYLESHEET}">
`
    : '';
  const eventsNav = events
    ? `<nav class="api-docs-links"><a href="${escapeHtml(path.posix.relative(folder, events.documentPath))}">Change events (AsyncAPI 3.0)</a><a href="${assetsBase}events">Event types</a></nav>
`
    : '';
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${assetsBase}swagger-ui.css">
${eventsLinks}<link rel="icon" type="image/png" href="${assetsBase}favicon-32x32.png" sizes="32x32">
</head>
<body>
${eventsNav}<div id="swagger-ui" data-document="${escapeHtml(path.posix.relative(folder, documentPath))}"></div>
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
  if (events) {
    // Rendered once: the document does not change while the process runs.
    const listing = eventsPage(title, pagePath, events.documentPath, events.document as JsonRecord);
    router.get(`${pagePath}/events`, (_req, res) => {
      secureHeaders(res);
      res.type('text/html').send(listing);
    });
    router.get(`${pagePath}/${STYLESHEET}`, (_req, res) => {
      secureHeaders(res);
      res.type('text/css').send(stylesheet);
    });
  }
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
