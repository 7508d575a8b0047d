import { TextInput } from '@mantine/core';
import { convertSourceUrl, sourceUrlProblem } from '@sluice/api';
import { useState } from 'react';

/** The blank row after the sources: a URL typed here is added on blur, converted (spec 001 §5). */
export function NewSourceRow({ onAdd }: { onAdd: (url: string) => void }) {
  const [text, setText] = useState('');
  const url = convertSourceUrl(text.trim());
  const problem = url ? sourceUrlProblem(url) : undefined;
  return (
    <TextInput
      aria-label="New source URL"
      placeholder="New URL"
      value={text}
      error={problem}
      onChange={(event) => setText(event.currentTarget.value)}
      onBlur={() => {
        if (!url || problem) return;
        onAdd(url);
        setText('');
      }}
    />
  );
}
