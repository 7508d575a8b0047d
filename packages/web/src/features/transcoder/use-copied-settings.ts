import type { Transcoder } from '@sluice/api';
import { useCallback, useEffect, useState } from 'react';
import { CLIPBOARD_KEY } from './transcoder-constants.js';
import { copySettings, readCopiedSettings } from './transcoder-clipboard.js';

/** The settings copied to local storage, followed across the browser's tabs. */
export function useCopiedSettings() {
  const [copied, setCopied] = useState(() => readCopiedSettings(localStorage));
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === CLIPBOARD_KEY) setCopied(readCopiedSettings(localStorage));
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
  const copy = useCallback((settings: Transcoder) => {
    copySettings(localStorage, settings);
    setCopied(readCopiedSettings(localStorage));
  }, []);
  return { copied, copy };
}
