import type { Transcoder } from '@sluice/api';
import { useCallback, useMemo } from 'react';
import { useEdit, useView } from '../../api/use-live.js';
import { isEnabled } from './transcoder-model.js';

/**
 * A stream's transcoder as the tab shows it (saved, with unsaved edits laid over) and its setters:
 * `replace` for the structural changes (tracks added or removed, copy from origin), `setAt` for one
 * field under the transcoder. Both only edit; Save sends the edits.
 */
export function useTranscoder(name: string) {
  const path = useMemo(() => ['streams', name, 'transcoder'], [name]);
  const value = useView<Transcoder>(path);
  const edit = useEdit();
  const replace = useCallback(
    (next: Transcoder | null) => edit(path, next !== null && isEnabled(next) ? next : null),
    [edit, path],
  );
  const setAt = useCallback(
    (sub: readonly string[], next: unknown) => edit([...path, ...sub], next),
    [edit, path],
  );
  return { path, value, replace, setAt };
}

export type TranscoderAccess = ReturnType<typeof useTranscoder>;
