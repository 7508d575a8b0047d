import { Group, NativeSelect, TextInput, type TextInputProps } from '@mantine/core';
import { useCallback, useState } from 'react';
import { digitsOnly } from '../lib/numbers.js';
import { amountIn, pickUnit, type Unit, valueOf } from '../lib/units.js';
import { useTextDraft } from './use-text-draft.js';

type UnitInputProps = Omit<TextInputProps, 'value' | 'onChange' | 'onBlur'> & {
  /** The value in base units (bits per second, seconds, bytes). */
  value: number | null | undefined;
  onChange: (value: number | null) => void;
  units: readonly Unit[];
  defaultUnit: Unit;
  debounceMs?: number;
};

/**
 * A number with a unit (spec 000 §5, §9): digits only, empty gives null, the stored value is the
 * number times the unit's factor. Changing the unit keeps the number typed and rescales the value.
 */
export function UnitInput({
  value,
  onChange,
  units,
  defaultUnit,
  debounceMs,
  label,
  ...props
}: UnitInputProps) {
  const [unit, setUnit] = useState(() => pickUnit(value, units, defaultUnit));
  const format = useCallback((v: number | null | undefined) => amountIn(v, unit), [unit]);
  const parse = useCallback((text: string) => valueOf(text, unit), [unit]);
  const draft = useTextDraft({ value, format, parse, onCommit: onChange, debounceMs });

  const changeUnit = (labelText: string) => {
    const next = units.find((u) => u.label === labelText) ?? unit;
    setUnit(next);
    onChange(valueOf(draft.text, next));
  };

  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <TextInput
        inputMode="numeric"
        label={label}
        {...props}
        style={{ flex: 1 }}
        value={draft.text}
        onChange={(event) => draft.change(digitsOnly(event.currentTarget.value))}
        onBlur={draft.blur}
      />
      <NativeSelect
        aria-label={typeof label === 'string' ? `${label} unit` : 'unit'}
        data={units.map((u) => u.label)}
        value={unit.label}
        onChange={(event) => changeUnit(event.currentTarget.value)}
      />
    </Group>
  );
}
