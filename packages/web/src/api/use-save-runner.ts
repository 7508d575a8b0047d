import { useCallback, useEffect, useRef, useState } from 'react';
import { SAVED_BANNER_MS, type SaveStatus } from './save-progress.js';

/**
 * Runs one save at a time and tracks its status for <SaveStatus>: saving, then "Saved." for 3 s,
 * or failed with the server's message. Every form, the raw editor and the import share it.
 */
export function useSaveRunner() {
  const [status, setStatus] = useState<SaveStatus>({ phase: 'idle' });
  const running = useRef(false);

  useEffect(() => {
    if (status.phase !== 'saved') return;
    const timer = setTimeout(() => setStatus({ phase: 'idle' }), SAVED_BANNER_MS);
    return () => clearTimeout(timer);
  }, [status]);

  /** Resolves true when the task succeeded; a failure is shown, and logged for the operator's console. */
  const run = useCallback(async (task: () => Promise<void>): Promise<boolean> => {
    if (running.current) return false;
    running.current = true;
    setStatus({ phase: 'saving', startedAt: Date.now() });
    try {
      await task();
      setStatus({ phase: 'saved' });
      return true;
    } catch (error) {
      setStatus({ phase: 'failed', message: error instanceof Error ? error.message : String(error) });
      return false;
    } finally {
      running.current = false;
    }
  }, []);

  return { status, saving: status.phase === 'saving', run };
}
