// Generated from apps/project-service/src/http/event-wakeup.ts by `npm run sync:copies`: edit that file, not this copy.
import type { RequestHandler } from 'express';
import { currentRequestContext } from '../request-context';

/**
 * Wakes the event relay once a request that recorded change events has been answered (its
 * transaction committed), so they are published at once rather than at the relay's next poll.
 */
export function wakeRelayAfterWrites(relay: { wake(): void }): RequestHandler {
  return (_req, res, next) => {
    const context = currentRequestContext();
    if (context) {
      // 'close' too: a client gone before its answer still committed its write.
      const wake = () => {
        if (context.recordedEvents.length > 0) relay.wake();
      };
      res.once('finish', wake);
      res.once('close', wake);
    }
    next();
  };
}
