import { useCallback, useEffect, useState } from 'react';
import { request, API_BASE } from '../../../api/http-client.js';

/** Spec 001 §9: after a switch request the buttons stay disabled 3 s. */
export const SWITCH_LOCK_MS = 3000;

/** GET stream_switch_source/{name}?url= (spec 001 §7), locking further switches for 3 s. */
export function useSwitchSource(name: string) {
  const [locked, setLocked] = useState(false);
  useEffect(() => {
    if (!locked) return;
    const timer = setTimeout(() => setLocked(false), SWITCH_LOCK_MS);
    return () => clearTimeout(timer);
  }, [locked]);
  const switchTo = useCallback(
    async (url: string) => {
      setLocked(true);
      try {
        await request(
          `${API_BASE}/stream_switch_source/${encodeURIComponent(name)}?url=${encodeURIComponent(url)}`,
        );
      } catch (error) {
        console.warn('Switching the source failed:', error);
      }
    },
    [name],
  );
  return { locked, switchTo };
}
