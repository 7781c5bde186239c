// Generated from apps/project-service/src/events/service-events.ts by `npm run sync:copies`: edit that file, not this copy.
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { planEvent, recordEvent, type ChangeEvent, type PlannedEvent } from '../db/outbox';
import type { Logger } from '../logger';
import { currentRequestContext } from '../request-context';
import { observeOutbox } from './event-metrics';
import type { EventsSettings } from './events-config';
import { NatsPublisher } from './nats-connection';
import { OutboxRelay, type DataRenderers, type RelayTuning } from './relay';

/** Records change events in the transaction of their change (the stores call it). */
export interface EventRecorder {
  /** Records `event` in `transaction`; returns its id. */
  record(transaction: Prisma.TransactionClient, event: ChangeEvent): Promise<string>;
  /**
   * An event for the change's own statement to record (outboxInsert), its data an image that
   * `renderer` (src/events/data-renderers.ts) renders at publish time; once the statement has
   * recorded it, the store calls recorded().
   */
  plan(type: string, aggregate: string, renderer: string): PlannedEvent;
  /** `event` (of plan()) was recorded by its change's statement. */
  recorded(event: PlannedEvent): void;
}

/** A running service's change events: the recorder the stores use, the relay, the NATS connection. */
export interface ServiceEvents {
  recorder: EventRecorder;
  relay: OutboxRelay;
  publisher: NatsPublisher;
  /** Publishes what it can until `deadline` (epoch ms), then closes the connection. */
  stop(deadline: number): Promise<void>;
}

/**
 * The recorder of events made by requests (and by commands, without a request): the actor and the
 * request id come from the request's context, and the ids go back to it (X-Sync waits for them).
 */
export const outboxRecorder: EventRecorder = {
  async record(transaction, event) {
    const context = currentRequestContext();
    const id = await recordEvent(transaction, event, {
      actor: context?.actor,
      requestId: context?.requestId,
    });
    context?.recordedEvents.push(id);
    return id;
  },
  plan(type, aggregate, renderer) {
    const context = currentRequestContext();
    return planEvent(type, aggregate, renderer, { actor: context?.actor, requestId: context?.requestId });
  },
  recorded(event) {
    currentRequestContext()?.recordedEvents.push(event.id);
  },
};

export interface ServiceEventsOptions {
  settings: EventsSettings;
  prisma: PrismaClient;
  logger: Logger;
  /** The events' `source`: the service's public URL. */
  source: string;
  /** The app's renderers of recorded images (its src/events/data-renderers.ts). */
  renderers: DataRenderers;
  /** False for commands that only publish what they requeue (drain) rather than run a loop. */
  startRelay?: boolean;
  relayTuning?: RelayTuning;
}

/** Connects to NATS (in the background) and starts the relay. */
export function startServiceEvents({
  settings,
  prisma,
  logger,
  source,
  renderers,
  startRelay = true,
  relayTuning = {},
}: ServiceEventsOptions): ServiceEvents {
  // The publisher calls back when NATS is (back) up; the relay exists by then.
  const relayRef: { current?: OutboxRelay } = {};
  const publisher = new NatsPublisher(settings, logger, () => relayRef.current?.retryNow());
  const relay = new OutboxRelay({
    prisma,
    publisher,
    logger,
    source,
    renderers,
    subjectPrefix: settings.stream.subjectPrefix,
    retentionMs: settings.retentionMs,
    ...relayTuning,
  });
  relayRef.current = relay;
  observeOutbox(prisma);
  if (startRelay) relay.start();
  return {
    recorder: outboxRecorder,
    relay,
    publisher,
    async stop(deadline) {
      await relay.stop(deadline);
      await publisher.close();
    },
  };
}
