import { Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { fetchAdStreams } from './ad-calls.js';

/** How often the counts are read again: shows and views move while players watch. */
const AD_STREAMS_POLL_MS = 5000;

/** 'Adverted streams' (spec 002 §2): per stream, a table of File, Shows, Views (GET ad_streams). */
export function AdvertedStreams() {
  const query = useQuery({
    queryKey: ['ad-streams'],
    queryFn: fetchAdStreams,
    refetchInterval: AD_STREAMS_POLL_MS,
    retry: false,
  });
  const streams = Object.entries(query.data ?? {});
  return (
    <Paper withBorder p="md" component="section" aria-label="Adverted streams">
      <Stack gap="sm">
        <Title order={3}>Adverted streams</Title>
        {streams.length === 0 && (
          <Text size="sm" c="dimmed">
            No ads shown yet.
          </Text>
        )}
        {streams.map(([stream, files]) => (
          <Stack key={stream} gap={4}>
            <Text fw={600}>{stream}</Text>
            <Table aria-label={`Ads of ${stream}`} striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>File</Table.Th>
                  <Table.Th>Shows</Table.Th>
                  <Table.Th>Views</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {files.map((file) => (
                  <Table.Tr key={file.name}>
                    <Table.Td>{file.name}</Table.Td>
                    <Table.Td>{file.show_count}</Table.Td>
                    <Table.Td>{file.view_count}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}
