import { type ClientSession, sessionsEvent } from '@sluice/api';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLiveSync } from '../../api/live-context.js';
import type { EventListener } from '../../api/live-sync.js';

/** Spec 001 §9: sessions are polled every 1000 ms while the clients tab is open. */
export const SESSIONS_POLL_MS = 1000;

/**
 * The sessions of media items (a stream, or the streams published into a location), asked for over
 * the events socket each second; undefined until each has answered once.
 */
export function useSessions(names: readonly string[]): ClientSession[] | undefined {
  const { connection, onEvent } = useLiveSync();
  const key = names.join('\n');
  const [byName, setByName] = useState<ReadonlyMap<string, ClientSession[]>>(new Map());
  const listener = useCallback<EventListener>(
    (event) => {
      const parsed = sessionsEvent.safeParse(event);
      if (!parsed.success || !key.split('\n').includes(parsed.data.name)) return;
      setByName((old) => new Map(old).set(parsed.data.name, parsed.data.sessions));
    },
    [key],
  );
  useEffect(() => onEvent(listener), [onEvent, listener]);
  useEffect(() => {
    const ask = () => {
      for (const name of key.split('\n'))
        if (name) connection.send(`sessions?name=${encodeURIComponent(name)}`);
    };
    ask();
    const timer = setInterval(ask, SESSIONS_POLL_MS);
    return () => clearInterval(timer);
  }, [connection, key]);
  return useMemo(() => {
    const wanted = key === '' ? [] : key.split('\n');
    if (wanted.some((name) => !byName.has(name))) return undefined;
    return wanted.flatMap((name) => byName.get(name) ?? []);
  }, [byName, key]);
}
