import type { MirroredStream } from '@sluice/api';
import { useCallback } from 'react';
import type { LiveState } from '../../api/live-state.js';
import type { LiveStore } from '../../api/live-store.js';
import { useLive, useView } from '../../api/use-live.js';
import type { LiveMirror } from '../mirror/live-mirror.js';
import { findOriginMirror } from '../mirror/url-match.js';

/**
 * The position of the mirror a stream is mirrored from, found by matching the stream's source url
 * against the mirrors' urls (spec 000 §2); undefined while none matches.
 */
export function useOriginMirror(name: string): string | undefined {
  const select = useCallback(
    (state: LiveState, store: LiveStore) =>
      findOriginMirror(name, store.viewAt(state, ['sources']) as Record<string, LiveMirror> | undefined),
    [name],
  );
  return useLive(select);
}

export const useMirroredStream = (position: string, name: string) =>
  useView<MirroredStream>(['sources', position, 'streams', name]);
