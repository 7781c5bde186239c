// What project-service publishes (docs/events.md): the stream's default name, the
// aggregates of its subjects, and each event type with the schema of its `data`. The AsyncAPI
// document and the relay read it; src/events/project-events.ts records the events.

/** The stream's default name (EVENTS_STREAM). */
export const EVENT_STREAM_NAME = 'PROJECTS';

/** The subjects' aggregates: `projects.<uid>.<action>`. */
export const EVENT_AGGREGATES = ['projects'] as const;
