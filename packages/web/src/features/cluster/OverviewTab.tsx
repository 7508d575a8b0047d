import { Anchor, Badge, Group, Table, Text } from '@mantine/core';
import type { ClusterServer } from '@sluice/api';
import { Link } from 'react-router';
import { pathTo } from '../../app/routes.js';
import { formatBitrate } from '../../lib/bitrate.js';
import { formatLifetime } from '../../lib/duration.js';
import { useClusterServers } from './cluster-calls.js';
import {
  hostPort,
  lastUpdateText,
  loadText,
  percentText,
  persistentMark,
  serverRows,
} from './cluster-format.js';
import { CallState } from './CallState.js';

const COLUMNS = [
  'Host',
  'CPU',
  'Mem',
  'Clients',
  'Streams',
  'Input bitrate',
  'Output bitrate',
  'Load',
  'Version',
  'Uptime',
  'Last update',
];

/** Host: the persistent mark, the name (to the peer's page), the http or https port, the peer marker, its error. */
function HostCell({ server }: { server: ClusterServer }) {
  const port = hostPort(server);
  return (
    <Table.Td>
      <Group gap={6} wrap="nowrap">
        <Text span ff="monospace" title={server.persistent ? 'persistent' : undefined}>
          {persistentMark(server)}
        </Text>
        <Text span>
          <Anchor component={Link} to={pathTo('cluster-peer', { name: server.name })}>
            {server.name}
          </Anchor>
          {port === undefined ? '' : `:${port}`}
        </Text>
        {server.is_peer && (
          <Badge size="xs" variant="light">
            peer
          </Badge>
        )}
      </Group>
      {server.error && (
        <Text size="xs" c="red" role="alert">
          {server.error}
        </Text>
      )}
    </Table.Td>
  );
}

const count = (n: number | undefined) => (n === undefined ? '' : String(n));

/** Spec 002 §2 Overview: a table of the cluster's servers with their figures. */
export function OverviewTab() {
  const query = useClusterServers();
  const answeredAt = query.dataUpdatedAt;
  return (
    <>
      <CallState pending={query.isPending} error={query.error} />
      {query.data && (
        <Table.ScrollContainer minWidth={900}>
          <Table aria-label="Servers" striped>
            <Table.Thead>
              <Table.Tr>
                {COLUMNS.map((column) => (
                  <Table.Th key={column}>{column}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {serverRows(query.data).map((server) => (
                <Table.Tr key={server.name} aria-label={server.name}>
                  <HostCell server={server} />
                  <Table.Td>{percentText(server.cpu_usage)}</Table.Td>
                  <Table.Td>{percentText(server.memory_usage)}</Table.Td>
                  <Table.Td>{count(server.client_count)}</Table.Td>
                  <Table.Td>{count(server.stream_count)}</Table.Td>
                  <Table.Td>{formatBitrate(server.input_bitrate)}</Table.Td>
                  <Table.Td>{formatBitrate(server.output_bitrate)}</Table.Td>
                  <Table.Td>{loadText(server.bandwidth_usage)}</Table.Td>
                  <Table.Td>{server.version ?? ''}</Table.Td>
                  <Table.Td>{server.uptime === undefined ? '' : formatLifetime(server.uptime)}</Table.Td>
                  <Table.Td>{lastUpdateText(server.fetch_delay, answeredAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
