import { useCallback } from 'react';
import { modifyConfig } from './config-calls.js';
import type { Delta, Path } from './edits.js';
import { useLiveSync } from './live-context.js';
import type { LiveState } from './live-state.js';
import { getIn } from './live-tree.js';
import { useLive } from './use-live.js';
import { useSaveRunner } from './use-save-runner.js';

/** {streams: {name: inner}} from ['streams', name] and inner. */
export const nest = (path: Path, inner: unknown): Delta =>
  path.reduceRight<unknown>((value, key) => ({ [key]: value }), inner) as Delta;

/** Fields an item carries in the live view that are not its config (spec 001 §3 stats, a location's streams). */
const LIVE_ONLY = ['stats', 'name', 'prefix', 'streams'];

/**
 * The save flow of one item's tab (spec 001 §4 "Editing"): Save sends the item's unsaved edits as
 * one delta keyed by the item, enabled only when something changed, nothing is invalid and no
 * save runs. `renameTo` moves the item: the old key deleted, the whole edited item under the new.
 */
export function useItemSaveFlow(path: Path, invalid = false) {
  const sync = useLiveSync();
  const { run, status, saving } = useSaveRunner();
  const key = path.join('\u0000');
  const selectChanged = useCallback(
    (state: LiveState) => getIn(state.edits, key.split('\u0000')) !== undefined,
    [key],
  );
  const changed = useLive(selectChanged);

  const save = useCallback(
    (renameTo?: string) =>
      run(async () => {
        const state = sync.store.getState();
        const edits = getIn(state.edits, path);
        let delta: Delta;
        if (renameTo !== undefined) {
          const item = { ...(sync.store.viewAt(state, path) as Delta) };
          for (const field of LIVE_ONLY) delete item[field];
          const old = path[path.length - 1] ?? '';
          delta = nest(path.slice(0, -1), { [old]: null, [renameTo]: item });
        } else {
          delta = nest(path, edits ?? {});
        }
        await modifyConfig(delta);
        await sync.confirmSaved(delta);
      }),
    [run, sync, path],
  );

  return { status, saving, changed, canSave: changed && !invalid && !saving, save };
}
