import { Group, Text } from '@mantine/core';

/** A field's label with its changed flag: a mark while the field holds an unsaved edit. */
export function ChangedLabel({ label, changed }: { label: string; changed: boolean }) {
  return (
    <Group component="span" gap={6} wrap="nowrap">
      <span>{label}</span>
      {changed && (
        <Text component="span" size="xs" c="orange" aria-label="unsaved change" title="unsaved change">
          ●
        </Text>
      )}
    </Group>
  );
}
