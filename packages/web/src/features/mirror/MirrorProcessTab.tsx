import { Group, Radio } from '@mantine/core';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { useConfigField } from '../global-config/global-fields.js';
import { ItemForm } from '../item-page/ItemForm.js';
import { useMirrorBase } from './use-mirror.js';

/** Spec 001 §2 Mirror item process: thumbnails disabled sets thumbnails null; enabled sets thumbnails.enabled. */
export function MirrorProcessTab() {
  const { base } = useMirrorBase();
  const thumbnails = useConfigField<{ enabled?: boolean }>([...base, 'thumbnails']);
  const enabled = useConfigField<boolean>([...base, 'thumbnails', 'enabled']);
  return (
    <ItemForm base={base}>
      <Radio.Group
        label={<ChangedLabel label="Thumbnails" changed={thumbnails.changed} />}
        description="Generate picture for each output segment"
        value={enabled.value === true ? 'enabled' : 'disabled'}
        onChange={(value) => (value === 'enabled' ? enabled.set(true) : thumbnails.set(null))}
      >
        <Group gap="sm" mt={4}>
          <Radio value="enabled" label="enabled" />
          <Radio value="disabled" label="disabled" />
        </Group>
      </Radio.Group>
    </ItemForm>
  );
}
