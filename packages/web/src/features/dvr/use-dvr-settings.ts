import { useCallback, useMemo } from 'react';
import { useLiveSync } from '../../api/live-context.js';
import { useChanged, useEdit, useView } from '../../api/use-live.js';

interface ItemDvr {
  root?: string;
  reference?: string;
  [key: string]: unknown;
}

/**
 * An item's dvr (and cache) as the DVR tab edits them (spec 001 §4 "DVR"): its own root, or a
 * reference to a global DVR config. Clearing the path, or leaving the reference with no path,
 * deletes the whole dvr config. `reset` drops this tab's unsaved edits and nothing else.
 */
export function useDvrSettings(base: readonly string[]) {
  const dvrPath = useMemo(() => [...base, 'dvr'], [base]);
  const cachePath = useMemo(() => [...base, 'cache'], [base]);
  const dvr = useView<ItemDvr>(dvrPath);
  const edit = useEdit();
  const { store } = useLiveSync();
  const dvrChanged = useChanged(dvrPath);
  const cacheChanged = useChanged(cachePath);
  const changed = dvrChanged || cacheChanged;

  const setRoot = useCallback(
    (root: string | null) => {
      if (root === null && dvr?.reference === undefined) edit(dvrPath, null);
      else edit([...dvrPath, 'root'], root);
    },
    [dvr?.reference, dvrPath, edit],
  );

  const setReference = useCallback(
    (name: string | null) => {
      if (name === null) {
        if (dvr?.root === undefined) edit(dvrPath, null);
        else edit([...dvrPath, 'reference'], null);
      } else {
        // A global DVR has its own root: the item's root would record elsewhere than it says.
        edit([...dvrPath, 'root'], null);
        edit([...dvrPath, 'reference'], name);
      }
    },
    [dvr?.root, dvrPath, edit],
  );

  const reset = useCallback(() => {
    const state = store.getState();
    const saved = { ...state, edits: {} };
    // Setting a field back to its saved value removes its edit (edits.ts setEdit).
    for (const path of [dvrPath, cachePath]) store.edit(path, store.viewAt(saved, path));
  }, [store, dvrPath, cachePath]);

  return { dvrPath, cachePath, dvr, changed, setRoot, setReference, reset };
}

export type DvrSettings = ReturnType<typeof useDvrSettings>;
