import { useCallback } from 'react';
import type { LiveState } from '../../api/live-state.js';
import type { LiveStore } from '../../api/live-store.js';
import { useLive } from '../../api/use-live.js';
import type { LiveFiles } from '../vod-file/live-file.js';
import { openedFilesOf, sameFigures, type VodFigures, vodFigures } from './vod-rows.js';

const sameNames = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

// The files map changes in place once it is wide (api/live-tree.ts): read it on every update.
const filesOf = (state: LiveState, store: LiveStore) =>
  store.viewAt(state, ['files']) as LiveFiles | undefined;

/** The opened files of a VOD (the live view's `files`), by name; the same array while they stay. */
export function useOpenedFiles(prefix: string): readonly string[] {
  const select = useCallback(
    (state: LiveState, store: LiveStore) => openedFilesOf(filesOf(state, store), prefix),
    [prefix],
  );
  return useLive(select, sameNames);
}

/** The clients and bitrate of a VOD's opened files, summed. */
export function useVodFigures(prefix: string): VodFigures {
  const select = useCallback(
    (state: LiveState, store: LiveStore) => vodFigures(filesOf(state, store), prefix),
    [prefix],
  );
  return useLive(select, sameFigures);
}
