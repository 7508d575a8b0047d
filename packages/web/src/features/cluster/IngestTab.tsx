import { Stack, Table } from '@mantine/core';
import { useClusterIngest, useClusterServers } from './cluster-calls.js';
import { capturingServers } from './cluster-format.js';
import { CallState } from './CallState.js';
import { ReloadButton } from './ReloadButton.js';

/**
 * Spec 002 §2 Ingest: streams as rows, servers as columns; a cell names the server when the stream
 * runs there, '-' otherwise. The streams re-poll every 3 s on their own (§9); Reload asks both now.
 */
export function IngestTab() {
  const servers = useClusterServers();
  const ingest = useClusterIngest();
  const streams = ingest.data?.streams ?? [];
  // The servers that may capture: this one and its peers (an origin a mirror reads is not one).
  const columns = servers.data ? capturingServers(servers.data) : [];
  // A server a stream runs at that the list does not name yet (it just joined) still gets its column.
  for (const stream of streams)
    for (const at of stream.running_at) if (!columns.includes(at)) columns.push(at);
  const reload = () => Promise.all([servers.refetch(), ingest.refetch()]);
  return (
    <Stack gap="sm">
      <ReloadButton onReload={reload} busy={servers.isFetching && !servers.isPending} />
      <CallState pending={ingest.isPending} error={ingest.error ?? servers.error} />
      {ingest.data && (
        <Table.ScrollContainer minWidth={400}>
          <Table aria-label="Ingest streams" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Stream</Table.Th>
                {columns.map((name) => (
                  <Table.Th key={name}>{name}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {streams.map((stream) => (
                <Table.Tr key={stream.name} aria-label={stream.name}>
                  <Table.Th scope="row">{stream.name}</Table.Th>
                  {columns.map((name) => (
                    <Table.Td key={name}>{stream.running_at.includes(name) ? name : '-'}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
