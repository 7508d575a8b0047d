import { type ClientSession, sessionsEvent } from '@sluice/api';
import { useCallback, useEffect, useState } from 'react';
import { useLiveSync } from '../../api/live-context.js';
import type { EventListener } from '../../api/live-sync.js';

/** Spec 001 §9: sessions are polled every 1000 ms while the clients tab is open. */
export const SESSIONS_POLL_MS = 1000;

/** The sessions of a media item, asked for over the events socket each second; undefined until the first answer. */
export function useSessions(name: string): ClientSession[] | undefined {
  const { connection, onEvent } = useLiveSync();
  const [sessions, setSessions] = useState<ClientSession[]>();
  const listener = useCallback<EventListener>(
    (event) => {
      const parsed = sessionsEvent.safeParse(event);
      if (parsed.success && parsed.data.name === name) setSessions(parsed.data.sessions);
    },
    [name],
  );
  useEffect(() => onEvent(listener), [onEvent, listener]);
  useEffect(() => {
    const ask = () => connection.send(`sessions?name=${encodeURIComponent(name)}`);
    ask();
    const timer = setInterval(ask, SESSIONS_POLL_MS);
    return () => clearInterval(timer);
  }, [connection, name]);
  return sessions;
}
