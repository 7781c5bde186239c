import { randomUUID } from 'node:crypto';
import { Parser, type AsyncAPIDocumentInterface } from '@asyncapi/parser';
import { useTestApp } from '@repo/testing';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { z } from 'zod';
import { ADMIN_PRINCIPAL, testAuthConfig, useProjectService } from './app';
import { createProject, rootUid } from './project-fixtures';
import { connectPrisma } from '../src/db/database';
import { actionOf } from '../src/events/envelope';
import { EVENT_TYPES } from '../src/events/event-types';
import { composeApp } from '../src/compose';
import { createLogger } from '../src/logger';

// The AsyncAPI 3.0 document of the change events, beside /_projects/openapi3.json, and the
// documentation page's list of them. No NATS is needed: the document describes what the relay publishes.

const DOCUMENT_PATH = '/_projects/asyncapi.json';
const PAGE_PATH = '/_projects/docs';
const EVENTS_PAGE_PATH = `${PAGE_PATH}/events`;
const SOURCE = 'http://localhost:8080/';

const service = useProjectService();

// The same app with the events' settings of a deployment: a subject prefix, a NATS URL with credentials.
const NATS_SECRET = 'nats-password-in-url';
const configured = useTestApp(async (source) => {
  const database = connectPrisma(source);
  const app = composeApp({
    database,
    logger: createLogger('silent'),
    auth: testAuthConfig,
    eventsDocument: {
      source: 'https://projects.example.org/',
      streamName: 'PROJECTS_STAGING',
      subjectPrefix: 'staging.',
      natsUrl: `nats://relay:${NATS_SECRET}@nats-1.internal:4222,tls://nats-2.internal:4443`,
    },
  });
  return { app, close: () => database.close() };
});

type Json = Record<string, unknown>;

/** What zod itself makes of a schema, as the brief of the document says: draft-07, output side. */
function zodJsonSchema(schema: z.ZodType): Json {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    unrepresentable: 'any',
  });
  return jsonSchema;
}

async function parsed(document: unknown): Promise<AsyncAPIDocumentInterface> {
  const { document: model, diagnostics } = await new Parser().parse(document as never);
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 0);
  if (model === undefined || errors.length > 0)
    throw new Error(`not a valid AsyncAPI document: ${JSON.stringify(errors)}`);
  return model;
}

function decodeHtml(html: string): string {
  return html
    .replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)))
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&amp;', '&');
}

describe(`GET ${DOCUMENT_PATH}`, () => {
  let body: Json;
  let model: AsyncAPIDocumentInterface;

  beforeAll(async () => {
    const response = await service.request
      .get(DOCUMENT_PATH)
      .expect(200)
      .expect('Content-Type', /^application\/json/);
    body = response.body as Json;
    model = await parsed(body);
  });

  it('is an AsyncAPI 3.0.0 document the AsyncAPI parser finds no error in', async () => {
    expect(body['asyncapi']).toBe('3.0.0');
    const diagnostics = await new Parser().validate(body as never);
    expect(diagnostics.filter((diagnostic) => diagnostic.severity === 0)).toEqual([]);
  });

  it('would be found wrong by the parser if it were (an operation on a channel it lacks)', async () => {
    const broken = structuredClone(body) as { operations: Record<string, Json> };
    const [first] = Object.values(broken.operations);
    first!['channel'] = { $ref: '#/channels/noSuchChannel' };
    const diagnostics = await new Parser().validate(broken as never);
    expect(diagnostics.filter((diagnostic) => diagnostic.severity === 0)).not.toEqual([]);
  });

  it('is served without credentials, naming the service, its default source and stream and a placeholder NATS server', () => {
    expect(model.info().title()).toBe('project-service');
    expect(model.info().description()).toContain(SOURCE);
    expect(model.info().description()).toContain('`PROJECTS`');
    expect(model.defaultContentType()).toBe('application/cloudevents+json');
    const servers = model.servers().all();
    expect(servers.map((server) => [server.protocol(), server.host()])).toEqual([['nats', '{host}']]);
  });

  it.each(EVENT_TYPES.map((definition) => [definition.type, definition] as const))(
    'has a channel, a message and a send operation for %s',
    (type, definition) => {
      const address = `${definition.aggregate}.{id}.${actionOf(type)}`;
      const channels = model
        .channels()
        .all()
        .filter((channel) => channel.address() === address);
      expect(channels).toHaveLength(1);
      const channel = channels[0]!;
      expect(
        channel
          .parameters()
          .all()
          .map((parameter) => parameter.id()),
      ).toEqual(['id']);

      const messages = channel.messages().all();
      expect(messages.map((message) => message.name())).toEqual([type]);
      const message = messages[0]!;
      expect(message.summary()).toBe(definition.summary);
      expect(message.contentType()).toBe('application/cloudevents+json');
      const headers = message.headers()!.json() as { required: string[] };
      expect(headers.required).toEqual(expect.arrayContaining(['Nats-Msg-Id', 'Content-Type']));

      const payload = message.payload()!.json() as { properties: Record<string, Json>; required: string[] };
      expect(payload.properties['type']).toMatchObject({ const: type });
      expect(payload.required).toEqual(
        expect.arrayContaining([
          'specversion',
          'id',
          'source',
          'type',
          'subject',
          'time',
          'data',
          'sequence',
        ]),
      );
      // All that zod's own conversion of the catalog's schema says, and the OpenAPI metadata besides.
      expect(payload.properties['data']).toMatchObject(zodJsonSchema(definition.data));

      const operations = channel.operations().all();
      expect(operations.map((operation) => operation.action())).toEqual(['send']);
      expect(
        operations[0]!
          .messages()
          .all()
          .map((sent) => sent.name()),
      ).toEqual([type]);
    },
  );

  it('lists nothing but the catalog’s event types', () => {
    const names = model
      .messages()
      .all()
      .map((message) => message.name());
    expect([...new Set(names)].sort()).toEqual(EVENT_TYPES.map(({ type }) => type).sort());
  });

  it('keeps what the schemas say only in their OpenAPI metadata (descriptions, formats)', () => {
    const message = model
      .messages()
      .all()
      .find((candidate) => candidate.name() === 'project.created')!;
    const data = (message.payload()!.json() as { properties: { data: { properties: Record<string, Json> } } })
      .properties.data;
    expect(data.properties['slug']).toMatchObject({ type: 'string', description: 'short slugified name' });
    expect(data.properties['uid']).toMatchObject({ type: 'string', format: 'uuid' });
    expect(data.properties['created_at']).toMatchObject({ type: 'string', format: 'date-time' });
  });

  it('describes what a project.created event carries: the POST /projects response in the envelope', async () => {
    const created = await createProject(service, { parent_uid: await rootUid(service) });
    const message = model
      .messages()
      .all()
      .find((candidate) => candidate.name() === 'project.created')!;
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(message.payload()!.json());
    const event = {
      specversion: '1.0',
      id: randomUUID(),
      source: SOURCE,
      type: 'project.created',
      subject: created.uid,
      time: new Date().toISOString(),
      datacontenttype: 'application/json',
      data: created as Record<string, unknown>,
      actor: ADMIN_PRINCIPAL,
      sequence: '1',
    };
    validate(event);
    expect(validate.errors ?? []).toEqual([]);
    expect(validate({ ...event, data: { ...event.data, uid: 'not a uuid' } })).toBe(false);
    expect(validate({ ...event, sequence: '0' })).toBe(false);
  });
});

describe(`GET ${DOCUMENT_PATH} with the events configured`, () => {
  it('has the subject prefix in every address, the NATS hosts without credentials, and the stream', async () => {
    const response = await configured.request.get(DOCUMENT_PATH).expect(200);
    expect(response.text).not.toContain(NATS_SECRET);
    expect(response.text).not.toContain('relay');
    const model = await parsed(response.body);
    expect(
      model
        .servers()
        .all()
        .map((server) => [server.protocol(), server.host()]),
    ).toEqual([
      ['nats', 'nats-1.internal:4222'],
      ['nats', 'nats-2.internal:4443'],
    ]);
    expect(model.info().description()).toContain('https://projects.example.org/');
    expect(model.info().description()).toContain('PROJECTS_STAGING');
    expect(
      model
        .channels()
        .all()
        .map((channel) => channel.address())
        .sort(),
    ).toEqual(EVENT_TYPES.map(({ type, aggregate }) => `staging.${aggregate}.{id}.${actionOf(type)}`).sort());
  });
});

describe('the documentation page and its events page', () => {
  it(`links ${PAGE_PATH} to the AsyncAPI document and to the events page`, async () => {
    const page = await service.request.get(PAGE_PATH).expect(200);
    const pageUrl = `${service.baseUrl}${PAGE_PATH}`;
    const link = page.text.match(/<a href="([^"]+)">Change events \(AsyncAPI 3\.0\)<\/a>/);
    expect(new URL(link![1]!, pageUrl).href).toBe(`${service.baseUrl}${DOCUMENT_PATH}`);
    const events = page.text.match(/<a href="([^"]+)">Event types<\/a>/);
    expect(new URL(events![1]!, pageUrl).href).toBe(`${service.baseUrl}${EVENTS_PAGE_PATH}`);
  });

  it(`serves ${EVENTS_PAGE_PATH} as the docs page is served: no credentials, same policy, only files of this service`, async () => {
    const [page, events] = await Promise.all([
      service.request.get(PAGE_PATH).expect(200),
      service.request.get(EVENTS_PAGE_PATH).expect(200),
    ]);
    expect(events.headers['content-type']).toMatch(/^text\/html/);
    for (const header of ['content-security-policy', 'x-content-type-options', 'referrer-policy'])
      expect(events.headers[header]).toBe(page.headers[header]);
    expect(events.text).not.toMatch(/<script|<style|\sstyle=|\son\w+=/i);
    const pageUrl = `${service.baseUrl}${EVENTS_PAGE_PATH}`;
    const urls = [...events.text.matchAll(/<(?:link|a)\b[^>]*\bhref="([^"#]+)"/g)].map(
      (match) => new URL(match[1]!, pageUrl),
    );
    expect(urls.map((url) => url.href)).toEqual(
      expect.arrayContaining([`${service.baseUrl}${DOCUMENT_PATH}`, `${service.baseUrl}${PAGE_PATH}`]),
    );
    for (const url of urls) {
      expect(url.origin).toBe(service.baseUrl);
      const loaded = await service.request.get(url.pathname);
      expect({ path: url.pathname, status: loaded.status }).toEqual({ path: url.pathname, status: 200 });
    }
  });

  it('lists every event type with its subject, summary and data schema, escaped', async () => {
    const [events, document] = await Promise.all([
      service.request.get(EVENTS_PAGE_PATH).expect(200),
      service.request.get(DOCUMENT_PATH).expect(200),
    ]);
    // The document as served (the parser's model adds keys of its own to the schemas).
    const messages = Object.values(
      (document.body as { components: { messages: Record<string, { name: string; payload: Json }> } })
        .components.messages,
    );
    const sections = [...events.text.matchAll(/<section id="[^"]*">([\s\S]*?)<\/section>/g)].map(
      (match) => match[1]!,
    );
    expect(sections).toHaveLength(EVENT_TYPES.length);
    for (const definition of EVENT_TYPES) {
      const section = sections.find((candidate) =>
        candidate.includes(`<h2><code>${definition.type}</code></h2>`),
      );
      expect(section).toBeDefined();
      const address = `${definition.aggregate}.{id}.${actionOf(definition.type)}`;
      expect(section).toContain(`<dt>Subject</dt><dd><code>${address}</code></dd>`);
      expect(section).toContain(
        '<dt>Headers</dt><dd><code>Nats-Msg-Id</code>, <code>Content-Type</code></dd>',
      );
      const summary = section!.match(/<dt>Summary<\/dt><dd>([\s\S]*?)<\/dd>/)![1]!;
      // Escaped: the summaries' quotes and braces are text; `code` spans are the only markup.
      expect(summary).not.toMatch(/'|"/);
      expect(decodeHtml(summary.replace(/<\/?code>/g, '`'))).toBe(definition.summary);
      const schema = JSON.parse(decodeHtml(section!.match(/<pre>([\s\S]*?)<\/pre>/)![1]!)) as unknown;
      const message = messages.find((candidate) => candidate.name === definition.type)!;
      expect(schema).toEqual((message.payload as { properties: { data: unknown } }).properties.data);
    }
  });
});
