import { type ClientSession, sessionsEvent } from '@sluice/api';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLiveSync } from '../../api/live-context.js';
import type { EventListener } from '../../api/live-sync.js';
import { sessionsPollOf } from './sessions-poll.js';

export { SESSIONS_POLL_MS } from './sessions-poll.js';

/**
 * The sessions of media items (a stream, or the streams published into a location), asked for over
 * the events socket each second while mounted (one shared poll per name: sessions-poll.ts);
 * undefined until each has answered once.
 */
export function useSessions(names: readonly string[]): ClientSession[] | undefined {
  const sync = useLiveSync();
  const { onEvent } = sync;
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
    const poll = sessionsPollOf(sync);
    const releases = key
      .split('\n')
      .filter(Boolean)
      .map((name) => poll.subscribe(name));
    return () => {
      for (const release of releases) release();
    };
  }, [sync, key]);
  return useMemo(() => {
    const wanted = key === '' ? [] : key.split('\n');
    if (wanted.some((name) => !byName.has(name))) return undefined;
    return wanted.flatMap((name) => byName.get(name) ?? []);
  }, [byName, key]);
}
