import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { type Delta, type Path } from './edits.js';
import { editOwnersOf } from './edit-owners.js';
import { useLiveSync } from './live-context.js';
import type { LiveState } from './live-state.js';
import { getIn } from './live-tree.js';
import { useLive } from './use-live.js';

const SEPARATOR = '\u0000';

/**
 * The unsaved edits of the item at `path` that this page's Save sends: those made on this page
 * (its address owns them) and those nobody owns. While mounted, edits under the item are owned here.
 */
export function useOwnedItemEdits(path: Path): { owner: string; edits: Delta } {
  const { store } = useLiveSync();
  const owners = editOwnersOf(store);
  const owner = useLocation().pathname;
  const key = path.join(SEPARATOR);

  useEffect(() => {
    const itemPath = key.split(SEPARATOR);
    let before = getIn(store.getState().edits, itemPath);
    return store.subscribe(() => {
      const after = getIn(store.getState().edits, itemPath);
      if (after === before) return;
      owners.attribute(itemPath, before, after, owner);
      before = after;
    });
  }, [store, owners, owner, key]);

  const select = useCallback((state: LiveState) => getIn(state.edits, key.split(SEPARATOR)), [key]);
  const itemEdits = useLive(select);
  const version = useSyncExternalStore(owners.subscribe, owners.getVersion);
  const edits = useMemo(
    () => owners.editsOf(key.split(SEPARATOR), itemEdits, owner),
    // version: the owners changed without the edits changing.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- version is read to recompute, not used
    [owners, key, itemEdits, owner, version],
  );
  return { owner, edits };
}

const selectEdits = (state: LiveState) => state.edits;

/** The page addresses (owners) that hold unsaved edits, for the tab links' marks. */
export function usePendingOwners(): Set<string> {
  const { store } = useLiveSync();
  const owners = editOwnersOf(store);
  const edits = useLive(selectEdits);
  const version = useSyncExternalStore(owners.subscribe, owners.getVersion);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- version is read to recompute, not used
  return useMemo(() => owners.ownersWithEdits(edits), [owners, edits, version]);
}
