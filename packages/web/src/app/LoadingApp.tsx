import { Center, Loader, Stack, Text } from '@mantine/core';

/** Spec 000 §2: while starting, the page shows "Loading app...". */
export function LoadingApp() {
  return (
    <Center mih={200}>
      <Stack align="center" gap="xs">
        <Loader size="sm" />
        <Text>Loading app...</Text>
      </Stack>
    </Center>
  );
}
