import {
  deleteStream,
  natsUrlForTests,
  uniqueEventNames,
  watchEvents,
  type EventWatch,
  type ReceivedEvent,
} from '@repo/testing';
import type { Response } from 'supertest';
import { TEST_EVENTS_SOURCE, useProjectService } from '../app';
import { rootUid } from '../project-fixtures';

// What the event tests of test/events/ share: the events of one project in a watched stream, the
// time window of a request, and the full check of one event against the write that made it.

/** RFC 3339 date-time (with a zone). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The project service with events on, publishing to a stream of the test file's own (deleted
 * afterwards), watched from the start: `watch` and `root` (the root project's uid) once beforeAll ran.
 */
export function useWatchedEventsService(label: string) {
  const natsUrl = natsUrlForTests() as string;
  const names = uniqueEventNames(label);
  const service = useProjectService(undefined, {
    events: { natsUrl, stream: names.stream, subjectPrefix: names.subjectPrefix },
  });
  let watch: EventWatch | undefined;
  let root: string | undefined;
  beforeAll(async () => {
    root = await rootUid(service);
    watch = await watchEvents(natsUrl, { stream: names.stream });
  });
  afterAll(async () => {
    await watch?.close();
    await deleteStream(natsUrl, names.stream);
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the watched events service is only ready inside tests');
    return value;
  };
  return {
    service,
    get watch(): EventWatch {
      return ready(watch);
    },
    get root(): string {
      return ready(root);
    },
  };
}

/** The events of project `uid` in the stream so far, in stream order. */
export function eventsOf(watch: EventWatch, uid: string): ReceivedEvent[] {
  return watch.events.filter((received) => received.event['subject'] === uid);
}

/** Waits until project `uid` has at least `count` events in the stream; returns them. */
export async function waitForEventsOf(watch: EventWatch, uid: string, count: number) {
  await watch.waitFor(() => eventsOf(watch, uid).length >= count);
  return eventsOf(watch, uid);
}

/** A response and the window (epoch ms) in which its request was sent and answered. */
export interface TimedResponse {
  response: Response;
  sentAt: number;
  answeredAt: number;
}

/** Sends a request, noting when it left and when its response came back. */
export async function timed(request: PromiseLike<Response>): Promise<TimedResponse> {
  const sentAt = Date.now();
  const response = await request;
  return { response, sentAt, answeredAt: Date.now() };
}

export interface ExpectedEvent {
  prefix: string;
  uid: string;
  type: 'project.created' | 'project.updated' | 'project.settings_updated' | 'project.deleted';
  actor: string;
  sequence: number;
  data: unknown;
  /** The write: its X-Request-Id and the window its event's `time` must fall in. */
  write: TimedResponse;
}

/** Checks one received event: subject, headers and every envelope attribute. */
export function expectEvent(received: ReceivedEvent | undefined, expected: ExpectedEvent): void {
  expect(received).toBeDefined();
  if (!received) return;
  const action = expected.type.slice('project.'.length);
  expect(received.jsonError).toBeUndefined();
  expect(received.subject).toBe(`${expected.prefix}projects.${expected.uid}.${action}`);
  expect(received.contentType).toBe('application/cloudevents+json');
  expect(typeof received.event['id']).toBe('string');
  expect(received.msgId).toBe(received.event['id']);
  const requestId = expected.write.response.headers['x-request-id'];
  expect(requestId).toEqual(expect.any(String));
  expect(received.event).toEqual({
    specversion: '1.0',
    id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
    source: TEST_EVENTS_SOURCE,
    type: expected.type,
    subject: expected.uid,
    time: expect.stringMatching(RFC3339),
    datacontenttype: 'application/json',
    data: expected.data,
    actor: expected.actor,
    requestid: requestId,
    sequence: String(expected.sequence),
  });
  // Committed while the request was in flight (the database's clock: the same machine's).
  const time = Date.parse(received.event['time'] as string);
  expect(time).toBeGreaterThanOrEqual(expected.write.sentAt);
  expect(time).toBeLessThanOrEqual(expected.write.answeredAt);
}
