import { useCallback } from 'react';
import type { LiveState } from '../../api/live-state.js';
import type { LiveStore } from '../../api/live-store.js';
import { useLive } from '../../api/use-live.js';
import type { FilterCounts, ListSpec, StreamIndex, StreamMap } from './stream-index.js';

/**
 * A slice of the stream list for `spec`, live, read through the page's one StreamIndex. Runs on
 * every store update but costs only what the update changed (see StreamIndex), and re-renders its
 * component only when the slice it picks changed.
 */
function useListSlice<T>(
  index: StreamIndex,
  spec: ListSpec,
  urlPublish: boolean,
  pick: (view: ReturnType<StreamIndex['view']>) => T,
  isEqual: (a: T, b: T) => boolean,
): T {
  const selector = useCallback(
    (state: LiveState, store: LiveStore) => {
      index.update(store.viewAt(state, ['streams']) as StreamMap | undefined, urlPublish);
      return pick(index.view(spec));
    },
    [index, spec, urlPublish, pick],
  );
  return useLive(selector, isEqual);
}

const pickNames = (view: { names: readonly string[] }) => view.names;

/** The rows to show, in order; the same array while they stay the same. */
export const useStreamNames = (index: StreamIndex, spec: ListSpec, urlPublish: boolean) =>
  useListSlice(index, spec, urlPublish, pickNames, Object.is);

const pickCounts = (view: { names: readonly string[]; counts: FilterCounts }) => ({
  matches: view.names.length,
  counts: view.counts,
});
const sameCounts = (a: ReturnType<typeof pickCounts>, b: ReturnType<typeof pickCounts>) =>
  a.matches === b.matches && a.counts === b.counts;

/** The number of rows shown and each toggle's count. */
export const useStreamCounts = (index: StreamIndex, spec: ListSpec, urlPublish: boolean) =>
  useListSlice(index, spec, urlPublish, pickCounts, sameCounts);
