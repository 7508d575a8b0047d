import { Group, NativeSelect } from '@mantine/core';
import { type PrepushMode, prepushMode, prepushValue } from '@sluice/api';
import { ChangedLabel } from '../../../components/ChangedLabel.js';
import { IntegerInput } from '../../../components/IntegerInput.js';
import { useConfigField } from '../../global-config/global-fields.js';

const MODES = [
  { value: 'off', label: 'disabled' },
  { value: 'on', label: 'enabled' },
  { value: 'seconds', label: 'enabled, seconds' },
];

/** Prepush (spec 001 §4): disabled (false), enabled (unset) or a number of seconds, 3 on selection. */
export function PrepushField({ base }: { base: string[] }) {
  const field = useConfigField<false | number>([...base, 'prepush']);
  const mode = prepushMode(field.value);
  return (
    <Group gap="sm" align="end">
      <NativeSelect
        label={<ChangedLabel label="Prepush" changed={field.changed} />}
        aria-label="Prepush"
        data={MODES}
        value={mode}
        onChange={(event) => field.set(prepushValue(event.currentTarget.value as PrepushMode))}
      />
      {mode === 'seconds' && (
        <IntegerInput
          aria-label="Prepush seconds"
          value={typeof field.value === 'number' ? field.value : null}
          onChange={(value) => field.set(value ?? prepushValue('seconds'))}
          w={100}
        />
      )}
    </Group>
  );
}
