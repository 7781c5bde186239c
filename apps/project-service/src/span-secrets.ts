/**
 * The spans as they leave the service, masked by the rules of the logs (log-secrets.ts): every
 * text of a span (its name, attributes, events and status) as a log line's, a URL or a request
 * target as the access log's URL, a query string as its query, a captured header named like a
 * credential whole. Done in the exporter (tracing.ts), in the batches it sends: off the path of
 * the requests, and after every instrumentation has written what it writes.
 */
import type { NodeSDKConfiguration } from '@opentelemetry/sdk-node';
import { REDACTED, isSecretName, redactedQueryString, redactedUrl, scrubbed } from './log-secrets';

type SpanExporter = NonNullable<NodeSDKConfiguration['traceExporter']>;
type ReadableSpan = Parameters<SpanExporter['export']>[0][number];
type Attributes = ReadableSpan['attributes'];

/** Attributes holding a whole URL or request target (semantic conventions, stable and older). */
const URL_ATTRIBUTES = new Set(['url.full', 'url.path', 'http.url', 'http.target']);
/** A captured header (`headersToSpanAttributes`), by its name. */
const HEADER_ATTRIBUTE = /^http\.(?:request|response)\.header\.(.+)$/;

function maskedText(key: string, text: string): string {
  if (key === 'url.query') return redactedQueryString(text);
  if (URL_ATTRIBUTES.has(key)) return redactedUrl(text);
  return scrubbed(text);
}

function maskedValue(key: string, value: Attributes[string]): Attributes[string] {
  const header = HEADER_ATTRIBUTE.exec(key);
  if (header && isSecretName(header[1]!)) return Array.isArray(value) ? value.map(() => REDACTED) : REDACTED;
  if (typeof value === 'string') return maskedText(key, value);
  if (Array.isArray(value)) {
    return value.map((item: unknown) =>
      typeof item === 'string' ? maskedText(key, item) : item,
    ) as string[];
  }
  return value;
}

/** `attributes` masked, or themselves when nothing in them is a credential. */
function maskedAttributes(attributes: Attributes): Attributes {
  let masked: Attributes | undefined;
  for (const [key, value] of Object.entries(attributes)) {
    const maskedItem = maskedValue(key, value);
    const changed = Array.isArray(value)
      ? (maskedItem as unknown[]).some((item, index) => item !== value[index])
      : maskedItem !== value;
    if (changed) (masked ??= { ...attributes })[key] = maskedItem;
  }
  return masked ?? attributes;
}

/** `span` as it may leave the service: itself when it holds no credential. */
export function maskedSpan(span: ReadableSpan): ReadableSpan {
  const name = scrubbed(span.name);
  const attributes = maskedAttributes(span.attributes);
  let eventsChanged = false;
  const events = span.events.map((event) => {
    const eventName = scrubbed(event.name);
    const eventAttributes = event.attributes && maskedAttributes(event.attributes);
    if (eventName === event.name && eventAttributes === event.attributes) return event;
    eventsChanged = true;
    return { ...event, name: eventName, attributes: eventAttributes };
  });
  const message = span.status.message && scrubbed(span.status.message);
  if (
    name === span.name &&
    attributes === span.attributes &&
    !eventsChanged &&
    message === span.status.message
  ) {
    return span;
  }
  // The span's other fields and methods (its context, times, resource) through its prototype.
  return Object.create(span, {
    name: { value: name },
    attributes: { value: attributes },
    events: { value: events },
    status: { value: { ...span.status, message } },
  }) as ReadableSpan;
}

/** `exporter`, given each span masked. */
export function maskingExporter(exporter: SpanExporter): SpanExporter {
  return {
    export: (spans, resultCallback) => exporter.export(spans.map(maskedSpan), resultCallback),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
