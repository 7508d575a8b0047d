import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { LoadingApp } from '../../app/LoadingApp.js';
import { useRawConfig } from './use-raw-config.js';
import { RawConfigForm } from './RawConfigForm.js';

/** The Config editor tab: the config file's text, edited and saved whole. */
export function ConfigEditorTab() {
  const raw = useRawConfig();
  if (raw.isPending) return <LoadingApp />;
  if (raw.isError) {
    return (
      <Alert color="red" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{raw.error.message}</Text>
          <Button size="xs" variant="light" onClick={() => void raw.refetch()}>
            Retry
          </Button>
        </Stack>
      </Alert>
    );
  }
  return (
    <Group align="flex-start">
      <RawConfigForm initialText={raw.data.text} revision={raw.data.revision} />
    </Group>
  );
}
