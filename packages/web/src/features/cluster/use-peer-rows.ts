import { deepEqual } from '@sluice/api';
import { useState } from 'react';
import { nextRowId } from '../../components/use-row-draft.js';
import { isBlankPeer, type PeerRow, type Peers, peersToRows, peerTexts, rowsToPeers } from './peer-lines.js';

const withBlank = (rows: PeerRow[]): PeerRow[] => {
  const last = rows[rows.length - 1];
  return last !== undefined && isBlankPeer(last) ? rows : [...rows, { id: nextRowId(), text: '' }];
};

/**
 * The peer list as typed lines over the config's peers (spec 002 §2, §5): a blank row is always
 * last, a line whose hostname was emptied goes on blur, 'remove' drops a line; every change is
 * committed as the whole peers map. An outside change (another browser's save) replaces the lines
 * unless they already say the same.
 */
export function usePeerRows(value: Peers | undefined, onCommit: (peers: Peers | null) => void) {
  const [rows, setRows] = useState(() => withBlank(peersToRows(value, nextRowId)));
  const [seen, setSeen] = useState(value);
  if (!Object.is(seen, value) && !deepEqual(seen, value)) {
    setSeen(value);
    // Compared as the lines they show: the server numbers positions its own way, and replacing the
    // lines after our own save would remount the input being typed in and take its focus.
    if (!deepEqual(peerTexts(rowsToPeers(rows)), peerTexts(value)))
      setRows(withBlank(peersToRows(value, nextRowId)));
  }

  const commit = (next: PeerRow[]) => {
    setRows(withBlank(next));
    onCommit(rowsToPeers(next));
  };

  return {
    rows,
    change: (id: number, text: string) => commit(rows.map((row) => (row.id === id ? { ...row, text } : row))),
    blur: (id: number) => {
      const index = rows.findIndex((row) => row.id === id);
      const row = rows[index];
      if (row && isBlankPeer(row) && index !== rows.length - 1) commit(rows.filter((r) => r.id !== id));
    },
    remove: (id: number) => commit(rows.filter((row) => row.id !== id)),
  };
}
