import type { OutboxRow } from '../db/outbox';
import { PROJECT_IMAGE_RENDERER } from '../db/project-image';
import { renderProjectImage } from './project-events';

// The relay (src/events/relay.ts, the same in both services) renders the data of the events whose
// change's statement recorded an image (event_outbox.renderer set) with these, by name.

/** Each renderer by the name the outbox rows carry: the row's image → the event's data, as JSON text. */
export const DATA_RENDERERS: Readonly<Record<string, (row: OutboxRow) => string>> = {
  [PROJECT_IMAGE_RENDERER]: renderProjectImage,
};
