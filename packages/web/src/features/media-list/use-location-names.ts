import { useCallback } from 'react';
import type { LiveState } from '../../api/live-state.js';
import type { LiveStore } from '../../api/live-store.js';
import { useLive } from '../../api/use-live.js';

type Keyed = Record<string, { position?: number } | undefined>;

const sameNames = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** The keys of the map at `path`, in config order; the same array while they stay the same. */
export function useOrderedKeys(path: readonly string[]): readonly string[] {
  const key = path.join('\u0000');
  const selector = useCallback(
    (state: LiveState, store: LiveStore) => {
      const map = (store.viewAt(state, key.split('\u0000')) ?? {}) as Keyed;
      return Object.keys(map).sort(
        (a, b) => (map[a]?.position ?? Infinity) - (map[b]?.position ?? Infinity) || a.localeCompare(b),
      );
    },
    [key],
  );
  return useLive(selector, sameNames);
}
