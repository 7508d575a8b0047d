import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useLoaded, useServerStats } from '../../api/use-live.js';
import { useServerInfo } from '../../api/server-info.js';
import { CoderCard } from './CoderCard.js';

/**
 * Chassis page (spec 002 §5): a card per hardware coder of a chassis server, from the server stats'
 * `coders`. The server's `chassis` flag (server info) says whether this is one; this server drives
 * no coder boards and is never one (docs/api.md), so opened directly here the page says so.
 */
export function ChassisPage() {
  const info = useServerInfo().data;
  const coders = useServerStats()?.coders ?? [];
  const loaded = useLoaded();
  return (
    <Stack>
      <Title order={2}>Chassis</Title>
      {info?.chassis === false && coders.length === 0 && (
        <Text c="dimmed">This server is not a chassis: it has no coders.</Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {coders.map((coder) => (
          <CoderCard key={coder.coder} coder={coder} loaded={loaded} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
