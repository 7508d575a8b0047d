import { useCallback, useMemo } from 'react';
import type { LiveState } from '../../api/live-state.js';
import type { LiveStore } from '../../api/live-store.js';
import { useLive } from '../../api/use-live.js';
import { useMediaName } from '../item-page/use-media-name.js';

/** Whether the config holds the live location `prefix`. */
export function useLocationExists(prefix: string): boolean {
  const selector = useCallback(
    (state: LiveState, store: LiveStore) => store.viewAt(state, ['lives', prefix]) !== undefined,
    [prefix],
  );
  return useLive(selector);
}

/** The page's location and the config path of its fields. */
export function useLocationBase(): { prefix: string; base: string[] } {
  const prefix = useMediaName();
  const base = useMemo(() => ['lives', prefix], [prefix]);
  return { prefix, base };
}
