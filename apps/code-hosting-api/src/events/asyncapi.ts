// Generated from apps/project-service/src/events/asyncapi.ts by `npm run sync:copies`: edit that file, not this copy.
// The AsyncAPI 3.0 document of the service's change events, generated from the same zod schemas as
// the events themselves (./event-types, ./envelope): served beside the OpenAPI document, and read by
// the documentation page's events page (src/http/docs/api-docs.ts).
import { getOpenApiMetadata } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { actionOf, CLOUD_EVENTS_CONTENT_TYPE, cloudEventSchema } from './envelope';
import { EVENT_TYPES } from './event-types';

export interface AsyncApiOptions {
  title: string;
  version: string;
  description?: string;
  /** The events' `source`: the service's public base URL. */
  source: string;
  /** The JetStream stream the events are published to. */
  streamName: string;
  /** Put before every subject (EVENTS_SUBJECT_PREFIX), '' for none. */
  subjectPrefix: string;
  /** The NATS server(s), comma-separated as NATS_URL gives them; credentials in them are left out. */
  natsUrl?: string;
}

/** A JSON value as the document holds it. */
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** An AsyncAPI 3.0.0 document, as plain JSON. */
export interface AsyncApiDocument extends JsonObject {
  asyncapi: '3.0.0';
  info: JsonObject;
  servers: JsonObject;
  defaultContentType: string;
  channels: { [id: string]: JsonObject };
  operations: { [id: string]: JsonObject };
  components: JsonObject;
}

/** The NATS headers every event message carries (nats-connection.ts sets them), among others. */
const NatsHeaders = z.looseObject({
  'Nats-Msg-Id': z
    .uuid()
    .describe("the event's `id`; JetStream de-duplicates by it within the stream's duplicate window"),
  'Content-Type': z.literal(CLOUD_EVENTS_CONTENT_TYPE),
});

/**
 * The JSON Schema (draft-07, which AsyncAPI's default schema format extends) of what a zod schema
 * accepts as output. The descriptions, formats and examples given through `.openapi({...})` (the
 * OpenAPI document's metadata, which zod's own conversion does not see) are kept too.
 */
export function eventJsonSchema(schema: z.ZodType): JsonObject {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema: converted }) => {
      const metadata: Record<string, unknown> | undefined = getOpenApiMetadata(
        zodSchema as unknown as z.ZodType,
      );
      if (metadata === undefined) return;
      const target = converted as Record<string, unknown>;
      const { description, format, anyOf, example } = metadata;
      if (typeof description === 'string') target['description'] ??= description;
      if (typeof format === 'string') target['format'] ??= format;
      if (Array.isArray(anyOf)) target['anyOf'] ??= anyOf;
      if (example !== undefined) target['examples'] ??= [example];
    },
  });
  return jsonSchema as JsonObject;
}

/** `nats://user:secret@host:4222` → `host:4222`: the address without credentials, path or scheme. */
function hostOf(url: string): string {
  const { host } = new URL(url);
  return host;
}

/** One server per NATS URL; a placeholder host, to be replaced by NATS_URL's, when none is known. */
function serversOf(natsUrl: string | undefined, streamName: string): JsonObject {
  const urls = (natsUrl ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
  const stream = `The events are in the JetStream stream \`${streamName}\`.`;
  if (urls.length === 0) {
    return {
      nats: {
        host: '{host}',
        protocol: 'nats',
        description: `The NATS server the service is configured with (NATS_URL); events are published only when it is set. ${stream}`,
        variables: { host: { default: 'localhost:4222', description: 'host and port of the NATS server' } },
      },
    };
  }
  return Object.fromEntries(
    urls.map((url, index) => [
      index === 0 ? 'nats' : `nats-${index + 1}`,
      {
        host: hostOf(url),
        protocol: 'nats',
        description: `A NATS server of the service (NATS_URL). ${stream}`,
      },
    ]),
  );
}

/** `project.settings_updated` → `projectSettingsUpdated`: the id of its channel, message and operation. */
function idOf(type: string): string {
  return type.replace(/[._-]+([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/** The AsyncAPI 3.0 document of every event type the service publishes. */
export function asyncApiDocument(options: AsyncApiOptions): AsyncApiDocument {
  const channels: { [id: string]: JsonObject } = {};
  const operations: { [id: string]: JsonObject } = {};
  const messages: JsonObject = {};
  for (const { type, aggregate, summary, data } of EVENT_TYPES) {
    const id = idOf(type);
    messages[id] = {
      name: type,
      title: type,
      summary,
      contentType: CLOUD_EVENTS_CONTENT_TYPE,
      headers: { $ref: '#/components/schemas/NatsHeaders' },
      payload: eventJsonSchema(cloudEventSchema(type, data)),
    };
    channels[id] = {
      address: `${options.subjectPrefix}${aggregate}.{id}.${actionOf(type)}`,
      title: type,
      summary,
      parameters: { id: { description: "the resource's stable id, the event's `subject`" } },
      messages: { [id]: { $ref: `#/components/messages/${id}` } },
    };
    operations[id] = {
      action: 'send',
      title: `Publish ${type}`,
      summary: `The service publishes a ${type} event for each such change, once committed.`,
      channel: { $ref: `#/channels/${id}` },
      messages: [{ $ref: `#/channels/${id}/messages/${id}` }],
    };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: options.title,
      version: options.version,
      description: [
        options.description,
        'Change events: CloudEvents 1.0 in JSON structured mode, published to NATS JetStream after each ' +
          `committed write, from source ${options.source}, to the stream \`${options.streamName}\`. ` +
          'Events of one resource are published in commit order; their `sequence` numbers them. ' +
          'A consumer de-duplicates by `id`.',
      ]
        .filter((part) => part !== undefined && part !== '')
        .join('\n\n'),
    },
    servers: serversOf(options.natsUrl, options.streamName),
    defaultContentType: CLOUD_EVENTS_CONTENT_TYPE,
    channels,
    operations,
    components: {
      messages,
      schemas: { NatsHeaders: eventJsonSchema(NatsHeaders) },
    },
  };
}
