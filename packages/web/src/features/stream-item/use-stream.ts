import type { Stream, StreamStats } from '@sluice/api';
import { useCallback } from 'react';
import type { LiveState } from '../../api/live-state.js';
import type { LiveStore } from '../../api/live-store.js';
import { useLive, useView } from '../../api/use-live.js';

export type StreamItem = Stream & { stats?: StreamStats };

/** A stream of the config with its unsaved edits laid over, and its stats (undefined: no such stream). */
export const useStream = (name: string) => useView<StreamItem>(['streams', name]);

/** A stream's live figures. */
export const useStreamStats = (name: string) => useView<StreamStats>(['streams', name, 'stats']);

/** Whether the config holds the stream: changes far less often than the stream itself. */
export function useStreamExists(name: string): boolean {
  const selector = useCallback(
    (state: LiveState, store: LiveStore) => store.viewAt(state, ['streams', name]) !== undefined,
    [name],
  );
  return useLive(selector);
}
