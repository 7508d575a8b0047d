import { deepEqual } from '@sluice/api';
import { useState } from 'react';

let lastRowId = 0;
/** Row ids unique for the page's lifetime, so React keys survive reordering and removal. */
export const nextRowId = () => ++lastRowId;

interface RowDraftOptions<R extends { id: number }, V, C extends V> {
  value: V;
  toRows: (value: V) => R[];
  fromRows: (rows: readonly R[]) => C;
  emptyRow: () => R;
  isEmpty: (row: R) => boolean;
  /** Problems by row id; while there are any, nothing is committed. */
  validate: (rows: readonly R[]) => ReadonlyMap<number, string>;
  onCommit: (value: C) => void;
}

const withTrailingEmpty = <R>(rows: R[], isEmpty: (row: R) => boolean, emptyRow: () => R): R[] => {
  const last = rows[rows.length - 1];
  return last !== undefined && isEmpty(last) ? rows : [...rows, emptyRow()];
};

/**
 * Editable rows over a stored value (web scripts, key/value options): a new empty row is always
 * at the bottom; an empty row is removed on blur; valid rows are committed as they are typed; an
 * outside change (another browser's save) replaces the rows unless they already say the same.
 */
export function useRowDraft<R extends { id: number }, V, C extends V>(options: RowDraftOptions<R, V, C>) {
  const { value, toRows, fromRows, emptyRow, isEmpty, validate, onCommit } = options;
  const [rows, setRows] = useState(() => withTrailingEmpty(toRows(value), isEmpty, emptyRow));
  const [seen, setSeen] = useState(value);
  // Compared by content: callers often derive the value afresh on each render (a new object that
  // says the same), and replacing the rows then would throw away a draft still being typed (an
  // invalid one is not committed) and remount the inputs, taking the focus (issue 17).
  if (!Object.is(seen, value) && !deepEqual(seen, value)) {
    setSeen(value);
    if (!deepEqual(fromRows(rows), value)) setRows(withTrailingEmpty(toRows(value), isEmpty, emptyRow));
  }
  const errors = validate(rows);

  const update = (id: number, patch: Partial<R>) => {
    const next = withTrailingEmpty(
      rows.map((row) => (row.id === id ? { ...row, ...patch } : row)),
      isEmpty,
      emptyRow,
    );
    setRows(next);
    if (validate(next).size === 0) onCommit(fromRows(next));
  };

  const blurRow = (id: number) => {
    const index = rows.findIndex((row) => row.id === id);
    const row = rows[index];
    if (!row || !isEmpty(row) || index === rows.length - 1) return;
    const next = rows.filter((r) => r.id !== id);
    setRows(next);
    if (validate(next).size === 0) onCommit(fromRows(next));
  };

  return { rows, errors, update, blurRow };
}
