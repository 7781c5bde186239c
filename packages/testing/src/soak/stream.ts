import { streamInfo, watchEvents, type ReceivedEvent } from '../nats';
import type { StreamEvent } from './history';

/** A received message as the history holds it (its observations left to the workload). */
export function streamEventOf(received: ReceivedEvent): StreamEvent {
  const { event } = received;
  const [aggregate, id] = received.subject.split('.');
  const sequence =
    typeof event['sequence'] === 'string' && /^\d+$/.test(event['sequence'])
      ? Number(event['sequence'])
      : undefined;
  return {
    streamSequence: received.streamSequence,
    id: typeof event['id'] === 'string' ? event['id'] : (received.msgId ?? ''),
    type: typeof event['type'] === 'string' ? event['type'] : '',
    resource: `${aggregate}.${id}`,
    ...(sequence === undefined ? {} : { sequence }),
    ...(typeof event['requestid'] === 'string' ? { requestId: event['requestid'] } : {}),
    data: event['data'],
    observes: [],
  };
}

/** Every message of `stream`, from its first, once the stream holds as many as it says. */
export async function readWholeStream(
  url: string,
  stream: string,
  timeoutMs = 60_000,
): Promise<StreamEvent[]> {
  const { messages } = await streamInfo(url, stream);
  const watch = await watchEvents(url, { stream });
  try {
    const received = await watch.waitFor(messages, timeoutMs);
    return received.map(streamEventOf);
  } finally {
    await watch.close();
  }
}
