import { Group, TextInput } from '@mantine/core';
import { deepEqual } from '@sluice/api';
import { useState } from 'react';
import { useReportError } from '../../components/form-context.js';
import { numberChars, parseGroup } from './transcoder-validation.js';

interface GroupInputsProps<K extends string> {
  errorId: string;
  fields: readonly { key: K; label: string }[];
  value: Partial<Record<K, number>> | undefined;
  requiredMessage: string;
  /** The whole group, or null when every field is empty (the group removed). */
  onCommit: (value: Record<K, number> | null) => void;
}

const toTexts = <K extends string>(keys: readonly K[], value: Partial<Record<K, number>> | undefined) =>
  Object.fromEntries(keys.map((k) => [k, value?.[k] === undefined ? '' : String(value[k])])) as Record<
    K,
    string
  >;

/**
 * Fields set together (crop's edges, aspect's x and y, spec 001 §5): each above zero, all required
 * once any is set; the group is committed whole whenever it is valid, and removed when all are empty.
 */
export function GroupInputs<K extends string>({
  errorId,
  fields,
  value,
  requiredMessage,
  onCommit,
}: GroupInputsProps<K>) {
  const keys = fields.map((f) => f.key);
  const [texts, setTexts] = useState(() => toTexts(keys, value));
  const [seen, setSeen] = useState(value);
  if (!Object.is(seen, value)) {
    setSeen(value);
    const parsed = parseGroup(texts, requiredMessage);
    if (parsed.value === undefined || !deepEqual(parsed.value ?? undefined, value))
      setTexts(toTexts(keys, value));
  }
  const { errors } = parseGroup(texts, requiredMessage);
  useReportError(
    errorId,
    Object.values<string | undefined>(errors).find((e) => e !== undefined),
  );

  const change = (key: K, text: string) => {
    const next = { ...texts, [key]: text };
    setTexts(next);
    const parsed = parseGroup(next, requiredMessage);
    if (parsed.value !== undefined) onCommit(parsed.value);
  };

  return (
    <Group gap="sm" align="flex-start">
      {fields.map((field) => (
        <TextInput
          key={field.key}
          label={field.label}
          aria-label={field.label}
          inputMode="numeric"
          value={texts[field.key]}
          onChange={(event) => change(field.key, numberChars(event.currentTarget.value))}
          error={errors[field.key]}
          w={130}
        />
      ))}
    </Group>
  );
}
