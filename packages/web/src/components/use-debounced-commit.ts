import { useCallback, useEffect, useRef } from 'react';

/**
 * One pending commit of a typed draft: `schedule` replaces it and runs it after `debounceMs`,
 * `cancel` drops it, `flush` runs it now. A commit still pending when the input goes away is run,
 * not lost.
 */
export function useDebouncedCommit(debounceMs: number) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pending = useRef<(() => void) | undefined>(undefined);
  const flush = useCallback(() => {
    clearTimeout(timer.current);
    const commit = pending.current;
    pending.current = undefined;
    commit?.();
  }, []);
  useEffect(() => flush, [flush]);

  const schedule = useCallback(
    (commit: () => void) => {
      clearTimeout(timer.current);
      pending.current = commit;
      timer.current = setTimeout(flush, debounceMs);
    },
    [flush, debounceMs],
  );
  const cancel = useCallback(() => {
    clearTimeout(timer.current);
    pending.current = undefined;
  }, []);
  const isPending = useCallback(() => pending.current !== undefined, []);
  return { schedule, cancel, flush, isPending };
}
