import { Group, Radio } from '@mantine/core';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { useConfigField } from '../global-config/global-fields.js';

/**
 * Spec 002 §2 VOD output: Allow direct file download (the file as it is, with HTTP Range), disabled
 * (download false) or enabled (the default: the key removed).
 */
export function VodDownloadField({ base }: { base: string[] }) {
  const field = useConfigField<boolean>([...base, 'download']);
  return (
    <Radio.Group
      label={<ChangedLabel label="Allow direct file download" changed={field.changed} />}
      aria-label="Allow direct file download"
      description="HTTP Range supported"
      value={field.value === false ? 'disabled' : 'enabled'}
      onChange={(value) => field.set(value === 'disabled' ? false : null)}
    >
      <Group gap="sm" mt={4}>
        <Radio value="enabled" label="enabled" />
        <Radio value="disabled" label="disabled" />
      </Group>
    </Radio.Group>
  );
}
