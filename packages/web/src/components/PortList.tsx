import { TextInput, type TextInputProps } from '@mantine/core';
import { joinTokens, parsePortList } from '../lib/tokens.js';
import { useTextDraft } from './use-text-draft.js';

type PortListProps = Omit<TextInputProps, 'value' | 'onChange' | 'onBlur'> & {
  value: readonly number[] | null | undefined;
  onChange: (value: number[] | null) => void;
};

const format = (value: readonly number[] | null | undefined) => joinTokens(value);

/** A list of ports: integers, non-numeric entries dropped; no ports is null (spec 000 §5). */
export function PortList({ value, onChange, ...props }: PortListProps) {
  const draft = useTextDraft({ value, format, parse: parsePortList, onCommit: onChange });
  return (
    <TextInput
      placeholder="none"
      {...props}
      value={draft.text}
      onChange={(event) => draft.change(event.currentTarget.value)}
      onBlur={draft.blur}
    />
  );
}
