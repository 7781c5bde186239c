import { PROJECT_IMAGE_RENDERER } from '../db/project-image';
import { renderProjectImage } from './project-events';
import type { DataRenderers } from './relay';

// The relay (src/events/relay.ts, the same in both services) renders the data of the events whose
// change's statement recorded an image (event_outbox.renderer set) with these, by name: main.ts and
// the event commands hand them to it.

export const DATA_RENDERERS: DataRenderers = {
  [PROJECT_IMAGE_RENDERER]: renderProjectImage,
};
