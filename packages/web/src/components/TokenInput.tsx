import { TextInput, type TextInputProps } from '@mantine/core';
import { joinTokens, splitTokens } from '../lib/tokens.js';
import { useTextDraft } from './use-text-draft.js';

type TokenInputProps = Omit<TextInputProps, 'value' | 'onChange' | 'onBlur'> & {
  value: readonly string[] | null | undefined;
  onChange: (value: string[] | null) => void;
};

const format = (value: readonly string[] | null | undefined) => joinTokens(value);

/** A list typed as text: split on commas, semicolons and spaces; an empty list is null (spec 000 §5). */
export function TokenInput({ value, onChange, ...props }: TokenInputProps) {
  const draft = useTextDraft({ value, format, parse: splitTokens, onCommit: onChange });
  return (
    <TextInput
      {...props}
      value={draft.text}
      onChange={(event) => draft.change(event.currentTarget.value)}
      onBlur={draft.blur}
    />
  );
}
