import { deepEqual } from '@sluice/api';
import { useCallback, useState } from 'react';
import { useDebouncedCommit } from './use-debounced-commit.js';

/** Spec 000 §9: input debounce 200 ms. */
export const INPUT_DEBOUNCE_MS = 200;

interface TextDraftOptions<V, C> {
  value: V;
  format: (value: V) => string;
  parse: (text: string) => C;
  onCommit: (value: C) => void;
  debounceMs?: number;
}

/**
 * The text of an input bound to a parsed value. What the operator types is kept as typed while it
 * means the current value (so "80, " stays while a second port is typed), committed after the
 * debounce or on blur, and replaced when the value changes from outside (another browser's save).
 */
export function useTextDraft<V, C extends V>({
  value,
  format,
  parse,
  onCommit,
  debounceMs = INPUT_DEBOUNCE_MS,
}: TextDraftOptions<V, C>) {
  const [text, setText] = useState(() => format(value));
  const [seen, setSeen] = useState(value);
  if (!Object.is(seen, value)) {
    setSeen(value);
    if (!deepEqual(parse(text), value)) setText(format(value));
  }

  const { schedule, flush } = useDebouncedCommit(debounceMs);

  const change = useCallback(
    (next: string) => {
      setText(next);
      schedule(() => onCommit(parse(next)));
    },
    [onCommit, parse, schedule],
  );

  // Leaving the field shows the value as committed ("  @x.png  " → "@x.png"), whether its commit
  // is still pending or the debounce ran already (an operator who paused, a busy machine).
  const blur = useCallback(() => {
    flush();
    setText((current) => format(parse(current)));
  }, [flush, format, parse]);

  return { text, change, blur };
}
