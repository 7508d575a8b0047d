import { NativeSelect } from '@mantine/core';

interface OptionSelectProps<T extends string | number> {
  label: string;
  options: readonly T[];
  value: T | undefined;
  /** null: the empty choice, which removes the setting. */
  onChange: (value: T | null) => void;
  /** What the empty choice says (the default the server applies). */
  emptyLabel?: string;
  disabled?: boolean;
  /** How an option reads (the value itself by default). */
  optionLabel?: (value: T) => string;
}

/**
 * A choice from one of the spec's lists (codec, FPS, sample rate…); numbers are stored as numbers.
 * A saved value missing from the list (written by hand) is still shown, not silently replaced.
 */
export function OptionSelect<T extends string | number>({
  label,
  options,
  value,
  onChange,
  emptyLabel = 'default',
  disabled,
  optionLabel = String,
}: OptionSelectProps<T>) {
  const shown = value === undefined || options.includes(value) ? options : [...options, value];
  // An empty numeric list (no devices) offers nothing to parse, so its type does not matter.
  const numeric = typeof (shown[0] ?? '') === 'number';
  return (
    <NativeSelect
      label={label}
      aria-label={label}
      disabled={disabled}
      data={[
        { value: '', label: emptyLabel },
        ...shown.map((o) => ({ value: String(o), label: optionLabel(o) })),
      ]}
      value={value === undefined ? '' : String(value)}
      onChange={(event) => {
        const text = event.currentTarget.value;
        onChange(text === '' ? null : ((numeric ? Number(text) : text) as T));
      }}
      w={150}
    />
  );
}
