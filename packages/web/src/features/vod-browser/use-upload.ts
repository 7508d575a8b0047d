import { useCallback, useEffect, useRef, useState } from 'react';
import { UPLOAD_RESET_MS } from './browser-constants.js';
import { perFilePercent } from './upload-progress.js';
import { sendUpload, type UploadTarget } from './upload-request.js';
import type { UploadState } from './upload-state.js';

/**
 * Runs one upload at a time and holds its state; 3000 ms after success or failure the form resets
 * (spec 002 §4): the state returns to idle and `formKey` changes so the chosen files are cleared.
 */
export function useUpload(target: UploadTarget, onUploaded: () => void) {
  const [state, setState] = useState<UploadState>({ phase: 'idle' });
  const [formKey, setFormKey] = useState(0);
  const abortRef = useRef<() => void>(undefined);
  const resetTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(
    () => () => {
      clearTimeout(resetTimer.current);
      abortRef.current?.();
    },
    [],
  );

  const start = useCallback(
    (picked: File[]) => {
      if (picked.length === 0) return;
      clearTimeout(resetTimer.current);
      const names = picked.map((f) => f.name);
      const sizes = picked.map((f) => f.size);
      let files = names.map((name) => ({ name, percent: 0 }));
      setState({ phase: 'running', files });
      const upload = sendUpload(target, picked, ({ loadedBytes, totalBytes }) => {
        const percents = perFilePercent(sizes, loadedBytes, totalBytes);
        files = names.map((name, i) => ({ name, percent: percents[i] ?? 0 }));
        setState({ phase: 'running', files });
      });
      abortRef.current = upload.abort;
      const finish = (next: UploadState) => {
        abortRef.current = undefined;
        setState(next);
        resetTimer.current = setTimeout(() => {
          setState({ phase: 'idle' });
          setFormKey((key) => key + 1);
        }, UPLOAD_RESET_MS);
      };
      upload.done.then(
        () => {
          finish({ phase: 'success', files: names.map((name) => ({ name, percent: 100 })) });
          onUploaded();
        },
        // Spec 002 §8: the server's error body is not shown; it stays findable in the browser's console.
        (error: unknown) => {
          console.warn('Upload failed:', error);
          finish({ phase: 'error', files });
        },
      );
    },
    [target, onUploaded],
  );
  return { state, formKey, start };
}
