import { Button, Center, Stack, Text } from '@mantine/core';

export const SERVER_ERROR_TEXT = 'Server error';

/** Spec 000 §4: any startup failure other than 401/403 shows "Server error" with a Retry button. */
export function ServerErrorPage({ onRetry }: { onRetry: () => void }) {
  return (
    <Center mih="60vh">
      <Stack align="center" gap="sm">
        <Text c="red" fw={600} role="alert">
          {SERVER_ERROR_TEXT}
        </Text>
        <Button onClick={onRetry}>Retry</Button>
      </Stack>
    </Center>
  );
}
