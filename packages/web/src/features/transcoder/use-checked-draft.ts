import { deepEqual } from '@sluice/api';
import { useCallback, useEffect, useRef, useState } from 'react';
import { INPUT_DEBOUNCE_MS } from '../../components/use-text-draft.js';
import type { Parsed } from './transcoder-validation.js';

interface CheckedDraftOptions<T> {
  value: T;
  format: (value: T) => string;
  parse: (text: string) => Parsed<T>;
  onCommit: (value: T) => void;
  debounceMs?: number;
}

/**
 * The text of an input whose value has rules (a bitrate, a width): the text is kept as typed, its
 * message shown at once, and only a valid value is committed (after the debounce, or on blur).
 * A value changed from outside replaces the text unless the text already means it.
 */
export function useCheckedDraft<T>({
  value,
  format,
  parse,
  onCommit,
  debounceMs = INPUT_DEBOUNCE_MS,
}: CheckedDraftOptions<T>) {
  const [text, setText] = useState(() => format(value));
  const [seen, setSeen] = useState(value);
  if (!Object.is(seen, value)) {
    setSeen(value);
    const parsed = parse(text);
    if (parsed.error !== undefined || !deepEqual(parsed.value, value)) setText(format(value));
  }

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pending = useRef<(() => void) | undefined>(undefined);
  const flush = useCallback(() => {
    clearTimeout(timer.current);
    const commit = pending.current;
    pending.current = undefined;
    commit?.();
  }, []);
  // A valid draft not yet committed when the input goes away is committed, not lost.
  useEffect(() => flush, [flush]);

  const change = useCallback(
    (next: string) => {
      setText(next);
      clearTimeout(timer.current);
      const parsed = parse(next);
      if (parsed.error !== undefined) {
        pending.current = undefined;
        return;
      }
      pending.current = () => onCommit(parsed.value);
      timer.current = setTimeout(flush, debounceMs);
    },
    [onCommit, parse, flush, debounceMs],
  );

  return { text, change, blur: flush, error: parse(text).error };
}
