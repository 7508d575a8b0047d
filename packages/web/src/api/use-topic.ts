import { useEffect } from 'react';
import { useLiveSync } from './live-context.js';
import type { EventListener } from './live-sync.js';

/**
 * Keeps a topic subscription of the events socket (spec 001 §7) while mounted and `active`: sends
 * `start` (again after each reconnect), hands the events to `onEvent`, and sends `stop` when done.
 */
export function useTopic(start: string, stop: string, onEvent: EventListener, active = true): void {
  const { connection, onEvent: listen } = useLiveSync();
  useEffect(() => listen(onEvent), [listen, onEvent]);
  useEffect(() => {
    if (!active) return;
    connection.startCommand(start);
    return () => connection.stopCommand(start, stop);
  }, [connection, start, stop, active]);
}
