import type { DataRenderers } from './relay';

// The relay (src/events/relay.ts, the same in both services) renders the data of the events whose
// change's statement recorded an image (event_outbox.renderer set) with these, by name: main.ts and
// the event commands hand them to it. Every code-hosting-api write records its event's data as
// published (renderer null): none.

export const DATA_RENDERERS: DataRenderers = {};
