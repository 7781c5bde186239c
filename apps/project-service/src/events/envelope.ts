import { z } from 'zod';
import type { OutboxRow } from '../db/outbox';

/** The Content-Type header of every event message: CloudEvents 1.0 in JSON structured mode. */
export const CLOUD_EVENTS_CONTENT_TYPE = 'application/cloudevents+json';

/** An event as published: CloudEvents 1.0 attributes, our extensions, and the resource. */
export interface CloudEvent {
  specversion: '1.0';
  id: string;
  source: string;
  type: string;
  subject: string;
  time: string;
  datacontenttype: 'application/json';
  data: unknown;
  actor?: string;
  requestid?: string;
  sequence: string;
}

/** The envelope's schema around `data` (one per event type: the AsyncAPI document's payloads). */
export function cloudEventSchema<Data extends z.ZodType>(type: string, data: Data) {
  return z.object({
    specversion: z.literal('1.0'),
    id: z
      .uuid()
      .describe('unique per event; also the NATS header Nats-Msg-Id (JetStream de-duplicates by it)'),
    source: z.url().describe('the service that published the event, the same on every event'),
    type: z.literal(type),
    subject: z.string().describe("the resource's stable id"),
    time: z.iso.datetime({ offset: true }).describe('when the change was committed, by the database clock'),
    datacontenttype: z.literal('application/json'),
    data,
    actor: z.string().optional().describe('who made the change; absent for changes made by the system'),
    requestid: z.string().optional().describe('the X-Request-Id of the response to the write'),
    sequence: z
      .string()
      .regex(/^[1-9][0-9]*$/)
      .describe(
        "the resource's event number, 1, 2, … in commit order (a gap or an older number shows a missed or stale event)",
      ),
  });
}

/** The action part of a type: `project.settings_updated` → `settings_updated`. */
export function actionOf(type: string): string {
  return type.slice(type.indexOf('.') + 1);
}

/** The NATS subject of an event: `<prefix><aggregate>.<id>.<action>`. */
export function subjectOf(prefix: string, aggregate: string, resourceId: string, type: string): string {
  return `${prefix}${aggregate}.${resourceId}.${actionOf(type)}`;
}

/** The CloudEvent of a recorded event with its `data` (JSON text, the relay's dataOf), as the JSON text published. */
export function cloudEventJson(row: OutboxRow, source: string, data: string): string {
  const attributes: Omit<CloudEvent, 'data'> = {
    specversion: '1.0',
    id: row.id,
    source,
    type: row.type,
    subject: row.resourceId,
    time: row.occurredAt.toISOString(),
    datacontenttype: 'application/json',
    ...(row.actor === null ? {} : { actor: row.actor }),
    ...(row.requestId === null ? {} : { requestid: row.requestId }),
    sequence: row.sequence.toString(),
  };
  // `data` is JSON text already: put in as it is, not parsed and serialized again; an object's
  // text always ends with its closing brace.
  return `${JSON.stringify(attributes).slice(0, -1)},"data":${data}}`;
}
