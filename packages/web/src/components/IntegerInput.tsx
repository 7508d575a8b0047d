import { TextInput, type TextInputProps } from '@mantine/core';
import { digitsOnly, parseInteger } from '../lib/numbers.js';
import { useTextDraft } from './use-text-draft.js';

type IntegerInputProps = Omit<TextInputProps, 'value' | 'onChange' | 'onBlur'> & {
  value: number | null | undefined;
  onChange: (value: number | null) => void;
};

const format = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

/** An integer field (a port, a count): digits only; empty gives null (spec 000 §5). */
export function IntegerInput({ value, onChange, ...props }: IntegerInputProps) {
  const draft = useTextDraft({ value, format, parse: parseInteger, onCommit: onChange });
  return (
    <TextInput
      inputMode="numeric"
      {...props}
      value={draft.text}
      onChange={(event) => draft.change(digitsOnly(event.currentTarget.value))}
      onBlur={draft.blur}
    />
  );
}
