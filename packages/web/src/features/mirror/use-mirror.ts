import { useCallback, useMemo } from 'react';
import type { LiveState } from '../../api/live-state.js';
import type { LiveStore } from '../../api/live-store.js';
import { useLiveSync } from '../../api/live-context.js';
import { useLive } from '../../api/use-live.js';
import { useMediaName } from '../item-page/use-media-name.js';
import type { LiveMirror } from './live-mirror.js';
import type { ModeLists } from './mirror-modes.js';

/** Whether the config holds a mirror at `position`. */
export function useMirrorExists(position: string): boolean {
  const selector = useCallback(
    (state: LiveState, store: LiveStore) => store.viewAt(state, ['sources', position]) !== undefined,
    [position],
  );
  return useLive(selector);
}

/** The mirror page's position (its mediaName) and the config path of its fields. */
export function useMirrorBase(): { position: string; base: string[] } {
  const position = useMediaName();
  const base = useMemo(() => ['sources', position], [position]);
  return { position, base };
}

/**
 * Reads a mirror's lists at the moment a toggle is clicked, so rows need not follow them: a toggle
 * computes its change from what is saved and edited now.
 */
export function useMirrorReader(position: string): () => LiveMirror & ModeLists {
  const { store } = useLiveSync();
  return useCallback(
    () => (store.viewAt(store.getState(), ['sources', position]) ?? {}) as LiveMirror,
    [store, position],
  );
}
