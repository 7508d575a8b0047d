import { Stack, Title } from '@mantine/core';
import { VodSettingField } from './VodSettingField.js';

/**
 * Spec 002 §2 "VOD settings": two integers, each with its own Save. The tree page's 'back to VOD
 * settings' link leads to the overview, so the settings are a section of it.
 */
export function VodSettingsSection({ prefix }: { prefix: string }) {
  return (
    <Stack gap="sm" component="section" aria-label="VOD settings">
      <Title order={4}>VOD settings</Title>
      <VodSettingField prefix={prefix} field="read_queue" label="Max simultaneous disk requests" />
      <VodSettingField prefix={prefix} field="max_readers" label="Max disk readers per file" />
    </Stack>
  );
}
