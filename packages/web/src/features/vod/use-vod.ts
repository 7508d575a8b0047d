import { useCallback, useMemo } from 'react';
import type { LiveState } from '../../api/live-state.js';
import type { LiveStore } from '../../api/live-store.js';
import { useLive } from '../../api/use-live.js';
import { useMediaName } from '../item-page/use-media-name.js';
import type { VodUrl } from './vod-paths.js';

/** Whether the config holds the VOD location `prefix`. */
export function useVodExists(prefix: string): boolean {
  const selector = useCallback(
    (state: LiveState, store: LiveStore) => store.viewAt(state, ['vods', prefix]) !== undefined,
    [prefix],
  );
  return useLive(selector);
}

/** The page's VOD prefix (its mediaName) and the config path of its fields. */
export function useVodBase(): { prefix: string; base: string[] } {
  const prefix = useMediaName();
  const base = useMemo(() => ['vods', prefix], [prefix]);
  return { prefix, base };
}

/** The source paths as the server holds them, without unsaved edits: what list_files numbers. */
export function useSavedVodUrls(prefix: string): readonly VodUrl[] | undefined {
  const selector = useCallback(
    (state: LiveState) => state.server.vods?.[prefix]?.urls as readonly VodUrl[] | undefined,
    [prefix],
  );
  return useLive(selector);
}
