import { TextInput, type TextInputProps } from '@mantine/core';
import { useReportError } from '../../components/form-context.js';
import type { Parsed } from './transcoder-validation.js';
import { useCheckedDraft } from './use-checked-draft.js';

type CheckedInputProps<T> = Omit<TextInputProps, 'value' | 'onChange' | 'onBlur' | 'error'> & {
  /** Names this input's message in the enclosing form, which keeps Save disabled while it stands. */
  errorId: string;
  value: T;
  format: (value: T) => string;
  parse: (text: string) => Parsed<T>;
  onCommit: (value: T) => void;
  /** What typing keeps of the text (digits and a sign, say). */
  filter?: (text: string) => string;
  debounceMs?: number;
};

/** A text input whose value has rules: its message shows under it and blocks Save. */
export function CheckedInput<T>({
  errorId,
  value,
  format,
  parse,
  onCommit,
  filter = (text) => text,
  debounceMs,
  ...props
}: CheckedInputProps<T>) {
  const draft = useCheckedDraft({ value, format, parse, onCommit, debounceMs });
  useReportError(errorId, draft.error);
  return (
    <TextInput
      {...props}
      value={draft.text}
      onChange={(event) => draft.change(filter(event.currentTarget.value))}
      onBlur={draft.blur}
      error={draft.error}
    />
  );
}
