import type { OutboxRow } from '../db/outbox';

// The relay (src/events/relay.ts, the same in both services) renders the data of the events whose
// change's statement recorded an image (event_outbox.renderer set) with these, by name. Every
// code-hosting-api write records its event's data as published (renderer null): none.

/** Each renderer by the name the outbox rows carry: the row's image → the event's data, as JSON text. */
export const DATA_RENDERERS: Readonly<Record<string, (row: OutboxRow) => string>> = {};
