import { useCallback } from 'react';
import { modifyConfig } from '../../api/config-calls.js';
import type { Delta } from '../../api/edits.js';
import { useLiveSync } from '../../api/live-context.js';
import { useSaveRunner } from '../../api/use-save-runner.js';

/**
 * Saves a change at once (spec 001 §4: disable/enable, static/on demand), one save at a time.
 * `optimistic`: the change shows as saved while the request runs, so the page follows the click at
 * once (a disabled stream's player goes before the server stops the stream under it); a failed save
 * takes it back. Without it (the mirror toggles) the control stays, locked, until the answer.
 */
export function useInstantSave({ optimistic = false }: { optimistic?: boolean } = {}) {
  const sync = useLiveSync();
  const { run, status, saving } = useSaveRunner();
  const save = useCallback(
    (delta: Delta) =>
      run(async () => {
        if (optimistic) sync.store.markSaved(delta);
        try {
          await modifyConfig(delta);
        } catch (error) {
          sync.store.clearPending();
          throw error;
        }
        await sync.confirmSaved(delta);
      }),
    [run, sync, optimistic],
  );
  return { save, status, saving };
}
