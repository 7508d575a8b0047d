import { Group, Radio } from '@mantine/core';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { useConfigField } from '../global-config/global-fields.js';
import { ItemForm } from '../item-page/ItemForm.js';
import { useLocationBase } from './use-location.js';

/** Thumbnails enabled or disabled for the location's streams (spec 001 §2 Process). */
export function LocationProcessTab() {
  const { base } = useLocationBase();
  const field = useConfigField<boolean>([...base, 'thumbnails', 'enabled']);
  return (
    <ItemForm base={base}>
      <Radio.Group
        label={<ChangedLabel label="Thumbnails" changed={field.changed} />}
        description="Generate picture for each output segment"
        value={field.value === true ? 'enabled' : 'disabled'}
        onChange={(value) => field.set(value === 'enabled' ? true : null)}
      >
        <Group gap="sm" mt={4}>
          <Radio value="enabled" label="enabled" />
          <Radio value="disabled" label="disabled" />
        </Group>
      </Radio.Group>
    </ItemForm>
  );
}
