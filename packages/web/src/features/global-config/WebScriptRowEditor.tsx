import { Group, Stack, Text, TextInput } from '@mantine/core';
import type { WebScriptRow } from './web-script-rows.js';

interface WebScriptRowEditorProps {
  row: WebScriptRow;
  index: number;
  error: string | undefined;
  onChange: (patch: Partial<WebScriptRow>) => void;
  /** Focus left the row (not just moved between its fields). */
  onLeave: () => void;
}

export function WebScriptRowEditor({ row, index, error, onChange, onLeave }: WebScriptRowEditorProps) {
  return (
    <Stack
      gap={2}
      role="group"
      aria-label={`Web script ${index + 1}`}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) onLeave();
      }}
    >
      <Group gap="xs" wrap="nowrap">
        <TextInput
          aria-label="Prefix"
          placeholder="prefix"
          value={row.prefix}
          onChange={(e) => onChange({ prefix: e.currentTarget.value.trim() })}
          w={200}
        />
        <TextInput
          aria-label="Path"
          placeholder="path"
          value={row.path}
          onChange={(e) => onChange({ path: e.currentTarget.value })}
          style={{ flex: 1 }}
        />
        <TextInput
          aria-label="Extra params"
          placeholder="key=value"
          value={row.extra}
          onChange={(e) => onChange({ extra: e.currentTarget.value })}
          style={{ flex: 1 }}
        />
      </Group>
      {error && (
        <Text c="red" size="xs" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
