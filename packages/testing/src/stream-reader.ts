import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

// Reads a stream straight from JetStream over a connection opened beforehand, so that a read right
// after a response sees the stream as it was then (no connection set up in between).

/** A message as JetStream stored it. */
export interface StoredMessage {
  msgId: string | undefined;
  event: Record<string, unknown>;
  /** When JetStream stored it (its clock: this machine's), epoch ms. */
  storedAt: number;
}

export interface StreamReader {
  /** The message last stored on `subject`, undefined when none. */
  lastOn(subject: string): Promise<StoredMessage | undefined>;
  /** How many messages the stream holds. */
  messages(): Promise<number>;
  close(): Promise<void>;
}

export async function openStreamReader(natsUrl: string, stream: string): Promise<StreamReader> {
  const nc = await connect({ servers: natsUrl, timeout: 5000 });
  const jsm = await jetstreamManager(nc);
  return {
    async lastOn(subject) {
      try {
        const message = await jsm.streams.getMessage(stream, { last_by_subj: subject });
        if (!message) return undefined;
        return {
          msgId: message.header.get('Nats-Msg-Id') || undefined,
          event: message.json<Record<string, unknown>>(),
          storedAt: message.time.getTime(),
        };
      } catch (error) {
        if (error instanceof Error && /no message found/i.test(error.message)) return undefined;
        throw error;
      }
    },
    async messages() {
      return (await jsm.streams.info(stream)).state.messages;
    },
    close: () => nc.close(),
  };
}
