import { useCallback, useRef } from 'react';

/**
 * Ids for the DVR panels that outlive a rename: a panel is keyed by its id, not its name, so the
 * applied rename (spec 002 §4, after the debounce) keeps the panel, its open state and the focus in
 * the name field the operator is still typing in.
 */
export function usePanelIds() {
  const ids = useRef(new Map<string, number>());
  const last = useRef(0);

  /** The panel id of a DVR name, made on first sight. */
  const idOf = useCallback((name: string): number => {
    let id = ids.current.get(name);
    if (id === undefined) {
      id = ++last.current;
      ids.current.set(name, id);
    }
    return id;
  }, []);

  /** Hands the old name's id to the new name, before the renamed DVR is first drawn. */
  const move = useCallback(
    (old: string, name: string) => {
      const id = idOf(old);
      ids.current.delete(old);
      ids.current.set(name, id);
    },
    [idOf],
  );

  return { idOf, move };
}
