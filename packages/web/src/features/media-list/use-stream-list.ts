import { useCallback, useState } from 'react';
import type { LiveState } from '../../api/live-state.js';
import type { LiveStore } from '../../api/live-store.js';
import { useLive } from '../../api/use-live.js';
import { type ListSpec, type ListView, StreamIndex, type StreamMap } from './stream-index.js';

/**
 * The stream list for `spec`, live. Runs on every store update, but costs a scan of identities
 * unless a stream changed, and gives the same ListView back unless the rows or counts moved.
 */
export function useStreamList(spec: ListSpec, urlPublish: boolean): ListView {
  const [index] = useState(() => new StreamIndex());
  const selector = useCallback(
    (state: LiveState, store: LiveStore) => {
      index.update(store.viewAt(state, ['streams']) as StreamMap | undefined, urlPublish);
      return index.view(spec);
    },
    [index, spec, urlPublish],
  );
  return useLive(selector);
}
