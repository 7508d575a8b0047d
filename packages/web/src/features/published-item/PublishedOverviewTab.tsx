import { Stack, TextInput } from '@mantine/core';
import { useMediaName } from '../item-page/use-media-name.js';

/** The published stream's name, read-only: it is the path the publisher chose. */
export function PublishedOverviewTab() {
  const name = useMediaName();
  return (
    <Stack gap="sm" maw={600}>
      <TextInput label="Name" aria-label="Name" readOnly value={name} />
    </Stack>
  );
}
