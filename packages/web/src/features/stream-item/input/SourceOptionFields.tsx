import { NativeSelect, TextInput } from '@mantine/core';
import { parsePids } from '@sluice/api';
import { useState } from 'react';
import { IntegerInput } from '../../../components/IntegerInput.js';

type Set = (key: string, value: unknown) => void;
type Entry = Record<string, unknown>;

/** Every option field edits one key of the source entry. */
interface OptionProps {
  entry: Entry;
  set: Set;
  name: string;
  label: string;
}

const num = (value: unknown) => (typeof value === 'number' ? value : null);
const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** An integer option (base 10); empty removes it (spec 001 §5). */
export function IntegerOption({ entry, set, name, label }: OptionProps) {
  return (
    <IntegerInput
      label={label}
      aria-label={label}
      value={num(entry[name])}
      onChange={(v) => set(name, v)}
      maw={300}
    />
  );
}

export function TextOption({ entry, set, name, label }: OptionProps) {
  const [text, setText] = useState(str(entry[name]));
  return (
    <TextInput
      label={label}
      aria-label={label}
      value={text}
      onChange={(event) => setText(event.currentTarget.value)}
      onBlur={() => set(name, text.trim() === '' ? null : text.trim())}
      maw={500}
    />
  );
}

/** A 'true'/'false' option, or unset (default). */
export function TrueFalseOption({ entry, set, name, label }: OptionProps) {
  return (
    <NativeSelect
      label={label}
      aria-label={label}
      data={['default', 'true', 'false']}
      value={str(entry[name]) || 'default'}
      onChange={(event) =>
        set(name, event.currentTarget.value === 'default' ? null : event.currentTarget.value)
      }
      maw={300}
    />
  );
}

/** Pids: comma-separated integers above 0 and below 8192; the text keeps only what is allowed. */
export function PidsOption({ entry, set }: { entry: Entry; set: Set }) {
  const [text, setText] = useState(str(entry.pids));
  return (
    <TextInput
      label="Pids"
      aria-label="Pids"
      value={text}
      onChange={(event) => {
        const pids = parsePids(event.currentTarget.value);
        setText(pids ?? '');
      }}
      onBlur={() => set('pids', parsePids(text)?.replace(/,$/, '') ?? null)}
      maw={500}
    />
  );
}
