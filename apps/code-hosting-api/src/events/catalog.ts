// What code-hosting-api publishes (docs/events.md): the stream's default name, the
// aggregates of its subjects, and each event type with the schema of its `data`. The AsyncAPI
// document and the relay read it; the stores record the events.

/** The stream's default name (EVENTS_STREAM). */
export const EVENT_STREAM_NAME = 'CODE_HOSTING';

/** The subjects' aggregates: `orgs.<id>.<action>`, `attachments.<id>.<action>`. */
export const EVENT_AGGREGATES = ['orgs', 'attachments'] as const;
