import { NativeSelect, PasswordInput, Switch, TextInput } from '@mantine/core';
import type { Config } from '@sluice/api';
import { useChanged, useEdit, useView } from '../../api/use-live.js';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { useIssue, useReportError } from '../../components/form-context.js';
import { IntegerInput } from '../../components/IntegerInput.js';
import { PortList } from '../../components/PortList.js';
import { useTextDraft } from '../../components/use-text-draft.js';

type Key = keyof Config & string;

/** A config field of the Settings tab: its value with edits, its changed flag, its setter, its issue. */
export function useConfigField<T>(path: readonly string[]) {
  const edit = useEdit();
  return {
    value: useView<T>(path),
    changed: useChanged(path),
    issue: useIssue(path),
    set: (value: T | null) => edit(path, value),
  };
}

export function PortListField({ name, label }: { name: Key; label: string }) {
  const field = useConfigField<number[]>([name]);
  return (
    <PortList
      label={<ChangedLabel label={label} changed={field.changed} />}
      aria-label={label}
      value={field.value}
      onChange={field.set}
      error={field.issue}
    />
  );
}

export function PortField({ name, label }: { name: Key; label: string }) {
  const field = useConfigField<number>([name]);
  return (
    <IntegerInput
      label={<ChangedLabel label={label} changed={field.changed} />}
      aria-label={label}
      value={field.value}
      onChange={field.set}
      error={field.issue}
    />
  );
}

const emptyToNull = (text: string) => (text === '' ? null : text);
const formatText = (value: string | null | undefined) => value ?? '';

/** A text field; empty becomes null (spec 000 §5), or "{label} is required" when `required`. */
export function TextField({
  path,
  label,
  required,
  secret,
}: {
  path: string[];
  label: string;
  required?: boolean;
  secret?: boolean;
}) {
  const field = useConfigField<string>(path);
  const draft = useTextDraft({
    value: field.value,
    format: formatText,
    parse: emptyToNull,
    onCommit: field.set,
  });
  const missing = required && draft.text === '' ? `${label} is required` : undefined;
  useReportError(`required:${path.join('.')}`, missing);
  const Input = secret ? PasswordInput : TextInput;
  return (
    <Input
      label={<ChangedLabel label={label} changed={field.changed} />}
      aria-label={label}
      value={draft.text}
      onChange={(event) => draft.change(event.currentTarget.value)}
      onBlur={draft.blur}
      error={missing ?? field.issue}
    />
  );
}

export function SwitchField({ name, label }: { name: Key; label: string }) {
  const field = useConfigField<boolean>([name]);
  return (
    <Switch
      label={<ChangedLabel label={label} changed={field.changed} />}
      aria-label={label}
      checked={field.value === true}
      onChange={(event) => field.set(event.currentTarget.checked ? true : null)}
      error={field.issue}
    />
  );
}

/** Log level: default (no loglevel key), debug, notice, error (spec 000 §9). */
export function LogLevelField() {
  const field = useConfigField<string>(['loglevel']);
  return (
    <NativeSelect
      label={<ChangedLabel label="Log level" changed={field.changed} />}
      aria-label="Log level"
      data={['default', 'debug', 'notice', 'error']}
      value={field.value ?? 'default'}
      onChange={(event) =>
        field.set(event.currentTarget.value === 'default' ? null : event.currentTarget.value)
      }
      error={field.issue}
    />
  );
}
