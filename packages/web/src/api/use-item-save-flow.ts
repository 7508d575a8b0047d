import { useCallback } from 'react';
import { isStale, modifyConfig } from './config-calls.js';
import type { Delta, Path } from './edits.js';
import { useLiveSync } from './live-context.js';
import { getIn } from './live-tree.js';
import { editOwnersOf } from './edit-owners.js';
import { useOwnedItemEdits } from './use-edit-owners.js';
import { useSaveRunner } from './use-save-runner.js';

/** {streams: {name: inner}} from ['streams', name] and inner. */
export const nest = (path: Path, inner: unknown): Delta =>
  path.reduceRight<unknown>((value, key) => ({ [key]: value }), inner) as Delta;

/** The save's failure when the item was changed elsewhere since its edits began (a 409). */
export const STALE_SAVE_TEXT =
  'Not saved: it was changed elsewhere since your edit. Reload it, or keep your edits and save again.';

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
  // Only this tab's edits count and go: edits left on the item's other tabs wait for their own Save.
  const { owner, edits: mine } = useOwnedItemEdits(path);
  const changed = Object.keys(mine).length > 0;

  const save = useCallback(
    (renameTo?: string) =>
      run(async () => {
        const state = sync.store.getState();
        const edits = editOwnersOf(sync.store).editsOf(path, getIn(state.edits, path), owner);
        let delta: Delta;
        if (renameTo !== undefined) {
          const item = { ...(sync.store.viewAt(state, path) as Delta) };
          for (const field of LIVE_ONLY) delete item[field];
          const old = path[path.length - 1] ?? '';
          delta = nest(path.slice(0, -1), { [old]: null, [renameTo]: item });
        } else {
          delta = nest(path, edits);
        }
        // If-Match: the revision the item's first edit was made at (issue 17); a 409 flags the item.
        const basedOn = sync.store.baseFor([path]);
        let revision: string | undefined;
        try {
          revision = await modifyConfig(delta, basedOn);
        } catch (error) {
          if (isStale(error)) {
            sync.store.flagElsewhere(path);
            throw new Error(STALE_SAVE_TEXT, { cause: error });
          }
          throw error;
        }
        await sync.confirmSaved(delta, revision);
      }),
    [run, sync, path, owner],
  );

  return { status, saving, changed, canSave: changed && !invalid && !saving, save };
}
