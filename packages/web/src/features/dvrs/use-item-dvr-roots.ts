import { type Config, itemDvrRoots } from '@sluice/api';
import { useCallback, useMemo } from 'react';
import type { LiveState } from '../../api/live-state.js';
import type { LiveStore } from '../../api/live-store.js';
import { useLive } from '../../api/use-live.js';

type Items = Pick<Config, 'streams' | 'lives' | 'sources'>;
const sameSections = (a: Items, b: Items) =>
  a.streams === b.streams && a.lives === b.lives && a.sources === b.sources;

/**
 * The dvr roots of streams, locations and mirrors (edits laid over), for the rule that a global
 * DVR's root is not a stream root (spec 002 §5). Recomputed only when one of those sections changes.
 */
export function useItemDvrRoots(): ReadonlySet<string> {
  const select = useCallback(
    (state: LiveState, store: LiveStore): Items => ({
      streams: store.viewAt(state, ['streams']) as Items['streams'],
      lives: store.viewAt(state, ['lives']) as Items['lives'],
      sources: store.viewAt(state, ['sources']) as Items['sources'],
    }),
    [],
  );
  const items = useLive(select, sameSections);
  return useMemo(() => itemDvrRoots(items), [items]);
}
