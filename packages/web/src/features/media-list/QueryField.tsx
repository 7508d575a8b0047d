import { Badge, TextInput } from '@mantine/core';
import { memo, useEffect, useState } from 'react';

/** Spec 000 §5, §9: input debounce 200 ms. */
export const QUERY_DEBOUNCE_MS = 200;

/** The text filter with the number of streams it lets through. */
export const QueryField = memo(function QueryField(props: {
  query: string;
  onQuery: (query: string) => void;
  matches: number;
}) {
  const text = useDebouncedText(props.query, props.onQuery);
  return (
    <TextInput
      aria-label="Filter streams"
      placeholder="Filter"
      value={text.value}
      onChange={(event) => text.change(event.currentTarget.value)}
      rightSection={
        <Badge variant="light" aria-label="matching streams">
          {props.matches}
        </Badge>
      }
      rightSectionWidth={70}
      w={260}
    />
  );
});

/**
 * The query as typed, handed on 200 ms after the last keystroke. The typed text shows until the
 * query holds it; from then on the query leads again, so back, forward and links set the field.
 */
function useDebouncedText(value: string, onCommit: (value: string) => void) {
  const [draft, setDraft] = useState<string>();
  // Caught up: drop the draft during this render (React's pattern for state following props).
  if (draft !== undefined && draft === value) setDraft(undefined);
  useEffect(() => {
    if (draft === undefined || draft === value) return;
    const timer = setTimeout(() => onCommit(draft), QUERY_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, value, onCommit]);
  return { value: draft ?? value, change: setDraft };
}
