import { Stack, Table, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { formatBitrate } from '../../lib/bitrate.js';
import { formatLifetime } from '../../lib/duration.js';
import { usePeerStreams } from './cluster-calls.js';
import { CallState } from './CallState.js';
import { ReloadButton } from './ReloadButton.js';

/** A stream's lifetime from when it started running (ms since the epoch), as of the answer. */
const lifetime = (startedAtMs: number | undefined, answeredAtMs: number) =>
  startedAtMs === undefined ? '' : formatLifetime((answeredAtMs - startedAtMs) / 1000);

/** Spec 002 §2 Peer detail: the server name, Reload, and its streams with lifetime, bitrate and clients. */
export function PeerPage() {
  const name = useParams().name ?? '';
  const query = usePeerStreams(name);
  const streams = Object.entries(query.data?.streams ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return (
    <Stack gap="sm">
      <Title order={3}>{name}</Title>
      <ReloadButton onReload={() => query.refetch()} busy={query.isFetching && !query.isPending} />
      <CallState pending={query.isPending} error={query.error} />
      {query.data && (
        <Table aria-label="Peer streams" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Lifetime</Table.Th>
              <Table.Th>Bitrate</Table.Th>
              <Table.Th>Clients</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {streams.map(([stream, { stats }]) => (
              <Table.Tr key={stream} aria-label={stream}>
                <Table.Td>{stream}</Table.Td>
                <Table.Td>{lifetime(stats?.start_running_at, query.dataUpdatedAt)}</Table.Td>
                <Table.Td>{formatBitrate(stats?.bitrate)}</Table.Td>
                <Table.Td>{stats?.client_count ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
