import { Group, Radio } from '@mantine/core';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { useConfigField } from '../global-config/global-fields.js';

/**
 * The Process tab's Thumbnails radio (spec 001 §2): enabled sets thumbnails.enabled true; disabled
 * clears the flag (location) or, for a mirror, sets the whole thumbnails block to null.
 */
export function ThumbnailsRadio({
  base,
  disabledClears,
}: {
  base: string[];
  disabledClears: 'flag' | 'block';
}) {
  const block = useConfigField<{ enabled?: boolean }>([...base, 'thumbnails']);
  const enabled = useConfigField<boolean>([...base, 'thumbnails', 'enabled']);
  return (
    <Radio.Group
      label={
        <ChangedLabel
          label="Thumbnails"
          changed={disabledClears === 'block' ? block.changed : enabled.changed}
        />
      }
      description="Generate picture for each output segment"
      value={enabled.value === true ? 'enabled' : 'disabled'}
      onChange={(value) => {
        if (value === 'enabled') enabled.set(true);
        else if (disabledClears === 'block') block.set(null);
        else enabled.set(null);
      }}
    >
      <Group gap="sm" mt={4}>
        <Radio value="enabled" label="enabled" />
        <Radio value="disabled" label="disabled" />
      </Group>
    </Radio.Group>
  );
}
