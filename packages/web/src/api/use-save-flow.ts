import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { isStale, modifyConfig } from './config-calls.js';
import { type Delta, pickKeys } from './edits.js';
import { useLiveSync } from './live-context.js';
import { STALE_SAVE_TEXT } from './use-item-save-flow.js';
import type { LiveState } from './live-state.js';
import { useLive } from './use-live.js';
import { useSaveRunner } from './use-save-runner.js';

function sameEntries(a: Delta, b: Delta): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** A path's delta that deletes it: ['streams', 'x'] → {streams: {x: null}}. */
export function deletion(path: readonly string[]): Delta {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), null) as Delta;
}

/**
 * The save flow of every form (spec 000 §4 "Editing"). A form owns the top-level config keys in
 * `keys`; Save sends their unsaved edits as one modify_config delta, enabled only when something
 * changed, nothing is invalid and no save runs. After saving, the change set is cleared.
 */
export function useSaveFlow({ keys, invalid = false }: { keys: readonly string[]; invalid?: boolean }) {
  const sync = useLiveSync();
  const navigate = useNavigate();
  const { run, status, saving } = useSaveRunner();
  const selectEdits = useCallback((state: LiveState) => pickKeys(state.edits, keys), [keys]);
  const edits = useLive(selectEdits, sameEntries);
  const changed = Object.keys(edits).length > 0;

  const save = useCallback(
    () =>
      run(async () => {
        // Read at call time: a field committed by the blur of this very click is in the store, not yet in a render.
        const delta = pickKeys(sync.store.getState().edits, keys);
        // If-Match: the revision the oldest of these edits was made at (issue 17); a 409 flags them.
        const basedOn = sync.store.baseFor(keys.map((key) => [key]));
        let revision: string | undefined;
        try {
          revision = await modifyConfig(delta, basedOn);
        } catch (error) {
          if (isStale(error)) {
            for (const key of Object.keys(delta)) sync.store.flagElsewhere([key]);
            throw new Error(STALE_SAVE_TEXT, { cause: error });
          }
          throw error;
        }
        void sync.confirmSaved(delta, revision);
      }),
    [run, keys, sync],
  );

  /** Deleting an item saves null for it and returns to the root (spec 000 §4). */
  const deleteItem = useCallback(
    async (path: readonly string[]) => {
      const delta = deletion(path);
      const ok = await run(async () => {
        await modifyConfig(delta);
        void sync.confirmSaved(delta);
      });
      if (ok) await navigate('/');
    },
    [run, sync, navigate],
  );

  const discard = useCallback(() => sync.store.discard(keys), [sync, keys]);

  return {
    status,
    saving,
    run,
    edits,
    changed,
    canSave: changed && !invalid && !saving,
    save,
    deleteItem,
    discard,
  };
}
