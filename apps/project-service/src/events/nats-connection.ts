import { readFileSync } from 'node:fs';
import {
  DiscardPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type PubAck,
} from '@nats-io/jetstream';
import {
  connect,
  credsAuthenticator,
  headers,
  nanos,
  NoRespondersError,
  TimeoutError,
  type ConnectionOptions,
  type NatsConnection,
} from '@nats-io/transport-node';
import type { Logger } from '../logger';
import { SERVICE_NAME } from '../service-name';
import { EVENT_AGGREGATES } from './catalog';
import { CLOUD_EVENTS_CONTENT_TYPE } from './envelope';
import type { EventsSettings, StreamSettings } from './events-config';

/** The connection is not up (NATS unreachable, or still connecting): the event stays in the outbox. */
export class NatsUnavailableError extends Error {}

/** The stream's subjects: each aggregate's, under the prefix. */
export function streamSubjects(stream: StreamSettings): string[] {
  return EVENT_AGGREGATES.map((aggregate) => `${stream.subjectPrefix}${aggregate}.>`);
}

/** The servers and credentials of NATS_URL and NATS_CREDS, for connect(). */
export function natsServerOptions(
  settings: EventsSettings,
): Pick<ConnectionOptions, 'servers' | 'authenticator'> {
  return {
    servers: settings.natsUrl.split(','),
    authenticator: settings.natsCreds ? credsAuthenticator(readFileSync(settings.natsCreds)) : undefined,
  };
}

/**
 * The service's NATS connection for publishing: opened in the background (the service starts and
 * writes whether NATS answers or not), reconnecting for ever, and the stream created once connected
 * when it is missing (never changed when it exists).
 */
export class NatsPublisher {
  private connection: NatsConnection | undefined;
  private client: JetStreamClient | undefined;
  private streamChecked = false;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private endRetryWait: () => void = () => {};
  private readonly connecting: Promise<void>;

  constructor(
    private readonly settings: EventsSettings,
    private readonly logger: Logger,
    /** Called when the connection comes back after a loss (the relay retries at once). */
    private readonly onReconnect: () => void = () => {},
  ) {
    this.connecting = this.open();
  }

  /** Connects, trying again every few seconds until NATS answers or close() is called. */
  private async open(): Promise<void> {
    let failures = 0;
    while (!this.closed) {
      try {
        const connection = await connect({
          ...natsServerOptions(this.settings),
          name: SERVICE_NAME,
          // Once connected, a lost connection is re-established for ever.
          reconnect: true,
          maxReconnectAttempts: -1,
          reconnectTimeWait: 1000,
          // Generous: a dial the client abandons on a busy host can leave its socket open.
          timeout: 5000,
          // No stack captured for every publish's request (its timeout's trace): a cost per event
          // for a trace that would only ever show the relay's publish.
          noAsyncTraces: true,
        });
        if (this.closed) {
          await connection.close();
          return;
        }
        this.connection = connection;
        this.client = jetstream(connection, { timeout: this.settings.publishTimeoutMs });
        void this.watch(connection);
        if (failures > 0) this.logger.info('events: connected to NATS');
        // At start-up, not at the first event: consumers can subscribe before anything is written.
        await this.ensureStream(connection).catch((error: unknown) => {
          this.logger.warn(
            { err: error },
            'events: cannot create the stream yet; retried with the next event',
          );
        });
        this.onReconnect();
        return;
      } catch (error) {
        if (this.closed) return;
        if (failures === 0) {
          this.logger.warn(
            { err: error },
            'events: NATS not reachable; writes go on, events wait in the outbox',
          );
        }
        failures += 1;
        await new Promise<void>((resolve) => {
          this.endRetryWait = resolve;
          this.retryTimer = setTimeout(resolve, Math.min(5000, 250 * 2 ** Math.min(failures, 5)));
        });
      }
    }
  }

  private async watch(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === 'reconnect') {
        // The server may be a new one (or lost its store): check the stream again.
        this.streamChecked = false;
        this.onReconnect();
      }
    }
  }

  /** Creates the stream when it is missing; an existing one is left as its operators set it. */
  private async ensureStream(connection: NatsConnection): Promise<void> {
    if (this.streamChecked) return;
    const manager = await jetstreamManager(connection, { timeout: this.settings.publishTimeoutMs });
    const { stream } = this.settings;
    try {
      await manager.streams.info(stream.name);
    } catch (error) {
      if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound))
        throw error;
      await manager.streams.add({
        name: stream.name,
        subjects: streamSubjects(stream),
        num_replicas: stream.replicas,
        max_age: nanos(stream.maxAgeMs),
        max_bytes: stream.maxBytes,
        duplicate_window: nanos(stream.duplicateWindowMs),
        retention: RetentionPolicy.Limits,
        discard: DiscardPolicy.Old,
        storage: StorageType.File,
      });
      this.logger.info({ stream: stream.name, subjects: streamSubjects(stream) }, 'events: stream created');
    }
    this.streamChecked = true;
  }

  /** Publishes one event and waits for JetStream's acknowledgement (a duplicate id is acknowledged too). */
  async publish(subject: string, body: string, msgID: string): Promise<PubAck> {
    const { connection, client } = this;
    if (!connection || !client || connection.isClosed())
      throw new NatsUnavailableError('not connected to NATS');
    await this.ensureStream(connection);
    const messageHeaders = headers();
    messageHeaders.set('Content-Type', CLOUD_EVENTS_CONTENT_TYPE);
    return client.publish(subject, body, {
      msgID,
      headers: messageHeaders,
      timeout: this.settings.publishTimeoutMs,
    });
  }

  /** Resolves once the first connection is up (true), or when close() came first (false). */
  async connected(): Promise<boolean> {
    await this.connecting;
    return this.isConnected();
  }

  /**
   * Whether a publish failed for want of NATS (not connected, no answer in time, no stream to take
   * it): every event waits then. Any other failure is the event's own (NATS refused that message).
   */
  isOutage(error: unknown): boolean {
    // No stream takes the subject: the client reports it as JetStream not enabled, caused by no responders.
    if (
      error instanceof NoRespondersError ||
      (error instanceof Error && error.cause instanceof NoRespondersError)
    ) {
      // The stream is gone (deleted, or a server without our store): check it again next time.
      this.streamChecked = false;
      return true;
    }
    return error instanceof NatsUnavailableError || error instanceof TimeoutError || !this.isConnected();
  }

  /** Whether the connection is up now. */
  isConnected(): boolean {
    return this.connection !== undefined && !this.connection.isClosed() && !this.connection.isDraining();
  }

  /** Closes the connection (flushing what was sent); stops a connection attempt still running. */
  async close(): Promise<void> {
    this.closed = true;
    const connection = this.connection;
    this.connection = undefined;
    this.client = undefined;
    clearTimeout(this.retryTimer);
    this.endRetryWait();
    if (connection && !connection.isClosed()) await connection.close();
    // A connection attempt in progress closes what it opens (see open()).
    await this.connecting;
  }
}
