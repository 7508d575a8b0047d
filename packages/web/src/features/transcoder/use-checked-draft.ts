import { deepEqual } from '@sluice/api';
import { useCallback, useState } from 'react';
import { useDebouncedCommit } from '../../components/use-debounced-commit.js';
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

  const { schedule, cancel, flush } = useDebouncedCommit(debounceMs);

  const change = useCallback(
    (next: string) => {
      setText(next);
      const parsed = parse(next);
      // Only a valid value is committed; an invalid one drops what was waiting.
      if (parsed.error !== undefined) cancel();
      else schedule(() => onCommit(parsed.value));
    },
    [onCommit, parse, schedule, cancel],
  );

  return { text, change, blur: flush, error: parse(text).error };
}
