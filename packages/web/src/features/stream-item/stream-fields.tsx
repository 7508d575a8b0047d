import { Switch, TextInput } from '@mantine/core';
import { useCallback } from 'react';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { IntegerInput } from '../../components/IntegerInput.js';
import { useTextDraft } from '../../components/use-text-draft.js';
import { useConfigField } from '../global-config/global-fields.js';

/** Spec 001 §9: unit inputs apply after a 1000 ms debounce. */
export const UNIT_DEBOUNCE_MS = 1000;

interface FieldProps {
  path: string[];
  label: string;
  description?: string;
}

/** A whole number of the item (a count, a limit in Kbit/s); empty removes it. */
export function IntegerField({ path, label, description }: FieldProps) {
  const field = useConfigField<number>(path);
  return (
    <IntegerInput
      label={<ChangedLabel label={label} changed={field.changed} />}
      aria-label={label}
      description={description}
      value={field.value}
      onChange={field.set}
      error={field.issue}
      maw={300}
    />
  );
}

const formatScaled = (factor: number) => (value: number | null | undefined) =>
  value === null || value === undefined ? '' : String(value / factor);
const parseScaled = (factor: number) => (text: string) => {
  const number = Number.parseFloat(text);
  return text.trim() === '' || Number.isNaN(number) ? null : Math.round(number * factor);
};

/** A time in seconds, stored times `factor` (1000 for milliseconds), applied after 1000 ms. */
export function SecondsField({ path, label, description, factor = 1 }: FieldProps & { factor?: number }) {
  const field = useConfigField<number>(path);
  const format = useCallback((v: number | null | undefined) => formatScaled(factor)(v), [factor]);
  const parse = useCallback((text: string) => parseScaled(factor)(text), [factor]);
  const draft = useTextDraft({
    value: field.value,
    format,
    parse,
    onCommit: field.set,
    debounceMs: UNIT_DEBOUNCE_MS,
  });
  return (
    <TextInput
      label={<ChangedLabel label={label} changed={field.changed} />}
      aria-label={label}
      description={description}
      rightSection="s"
      value={draft.text}
      onChange={(event) => draft.change(event.currentTarget.value.replace(/[^\d.]/g, ''))}
      onBlur={draft.blur}
      error={field.issue}
      maw={300}
    />
  );
}

/** A flag stored as true, removed when off. */
export function FlagField({ path, label }: FieldProps) {
  const field = useConfigField<boolean>(path);
  return (
    <Switch
      label={<ChangedLabel label={label} changed={field.changed} />}
      aria-label={label}
      checked={field.value === true}
      onChange={(event) => field.set(event.currentTarget.checked ? true : null)}
    />
  );
}
