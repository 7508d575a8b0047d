import { ChangedLabel } from '../../components/ChangedLabel.js';
import { useConfigField } from '../global-config/global-fields.js';
import { CheckedInput } from '../transcoder/CheckedInput.js';
import type { Parsed } from './dvr-units.js';

interface CheckedFieldProps {
  path: string[];
  label: string;
  description?: string;
  placeholder?: string;
  format: (value: number | null | undefined) => string;
  parse: (text: string) => Parsed<number | null>;
  disabled?: boolean;
}

/** A DVR or cache number of the item, typed as text with units; its message blocks Save. */
export function CheckedField({ path, label, format, parse, ...props }: CheckedFieldProps) {
  const field = useConfigField<number>(path);
  return (
    <CheckedInput<number | null | undefined>
      errorId={`dvr:${path.join('.')}`}
      label={<ChangedLabel label={label} changed={field.changed} />}
      aria-label={label}
      value={field.value}
      format={format}
      parse={parse}
      onCommit={(value) => field.set(value ?? null)}
      maw={300}
      {...props}
    />
  );
}
