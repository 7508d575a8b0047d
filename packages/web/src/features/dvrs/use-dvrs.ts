import type { Dvr } from '@sluice/api';
import { useCallback, useMemo } from 'react';
import { useLiveSync } from '../../api/live-context.js';
import { useEdit, useGlobal } from '../../api/use-live.js';
import { newDvrName, nextPosition, orderedNames } from './dvr-form.js';

const NO_DVRS: Record<string, Dvr> = {};

/** The dvrs section with unsaved edits laid over, and the edits the DVR storage page makes to it. */
export function useDvrs() {
  const dvrs = useGlobal('dvrs') ?? NO_DVRS;
  const { store } = useLiveSync();
  const edit = useEdit();
  const names = useMemo(() => orderedNames(dvrs), [dvrs]);

  const put = useCallback((name: string, dvr: Dvr | null) => edit(['dvrs', name], dvr), [edit]);

  /** Adds a DVR at the end of the list and answers its name. Its root is still to be typed. */
  const add = useCallback((): string => {
    const name = newDvrName(names);
    put(name, { name, position: nextPosition(dvrs) });
    return name;
  }, [dvrs, names, put]);

  /**
   * Moves a DVR to its new name: the old key deleted, the whole DVR under the new one. Read from the
   * store when it runs: it runs after the name debounce, when the render that scheduled it is old.
   */
  const rename = useCallback(
    (old: string, name: string) => {
      const dvr = store.viewAt(store.getState(), ['dvrs', old]) as Dvr | undefined;
      if (!dvr || name === old) return;
      put(old, null);
      put(name, { ...dvr, name });
    },
    [put, store],
  );

  return { dvrs, names, put, add, rename };
}
