import { useCallback } from 'react';
import { modifyConfig } from '../../api/config-calls.js';
import type { Delta } from '../../api/edits.js';
import { useLiveSync } from '../../api/live-context.js';
import { useSaveRunner } from '../../api/use-save-runner.js';

/** Saves a change at once (spec 001 §4: disable/enable, static/on demand), one save at a time. */
export function useInstantSave() {
  const sync = useLiveSync();
  const { run, status, saving } = useSaveRunner();
  const save = useCallback(
    (delta: Delta) =>
      run(async () => {
        await modifyConfig(delta);
        await sync.confirmSaved(delta);
      }),
    [run, sync],
  );
  return { save, status, saving };
}
