import { config } from '@sluice/api';
import { useCallback, useMemo } from 'react';
import type { LiveState } from '../../api/live-state.js';
import type { LiveStore } from '../../api/live-store.js';
import { useLive } from '../../api/use-live.js';

type Slice = Record<string, unknown>;

const sameValues = (a: Slice, b: Slice) => Object.keys(a).every((k) => a[k] === b[k]);

/** Checks the given top-level keys, as edited, against the config schema: messages by dotted path. */
export function useConfigIssues(keys: readonly string[]): ReadonlyMap<string, string> {
  const select = useCallback(
    (state: LiveState, store: LiveStore) =>
      Object.fromEntries(keys.map((k) => [k, store.viewAt(state, [k])])),
    [keys],
  );
  const slice = useLive(select, sameValues);
  return useMemo(() => {
    const present = Object.fromEntries(Object.entries(slice).filter(([, v]) => v !== undefined));
    const result = config.safeParse(present);
    const issues = new Map<string, string>();
    if (!result.success) {
      for (const issue of result.error.issues) {
        const path = issue.path.map(String).join('.');
        if (!issues.has(path)) issues.set(path, issue.message);
      }
    }
    return issues;
  }, [slice]);
}
