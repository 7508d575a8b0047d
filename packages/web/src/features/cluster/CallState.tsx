import { Text } from '@mantine/core';

/** What a cluster list shows before its first answer, or when the call failed (the server's message). */
export function CallState({ pending, error }: { pending: boolean; error: Error | null }) {
  if (error)
    return (
      <Text c="red" role="alert">
        {error.message}
      </Text>
    );
  if (pending) return <Text c="dimmed">Loading...</Text>;
  return null;
}
