import { EditOnly } from '../../components/EditOnly.js';
import { Button, Table, Text } from '@mantine/core';
import type { ClientSession } from '@sluice/api';
import { closeSessions } from './close-sessions.js';
import { formatBytes, formatDuration } from './session-format.js';

const COLUMNS = [
  'Protocol',
  'Address',
  'Country',
  'Transmitted',
  'Duration',
  'Token',
  'User id',
  'User agent',
  '',
];

function SessionRow({ session }: { session: ClientSession }) {
  const kill = () =>
    closeSessions([session.id]).catch((error: unknown) => console.warn('Closing the session failed:', error));
  return (
    <Table.Tr aria-label={`session ${session.id}`}>
      <Table.Td>{session.type}</Table.Td>
      <Table.Td>{session.ip}</Table.Td>
      <Table.Td>{session.country ?? ''}</Table.Td>
      <Table.Td>{formatBytes(session.bytes_sent)}</Table.Td>
      <Table.Td>{formatDuration(session.duration)}</Table.Td>
      <Table.Td>{session.token ?? ''}</Table.Td>
      <Table.Td>{session.user_id ?? ''}</Table.Td>
      <Table.Td>
        <Text size="xs" lineClamp={2}>
          {session.user_agent}
        </Text>
      </Table.Td>
      <Table.Td>
        <EditOnly>
          <Button size="xs" color="red" variant="light" onClick={() => void kill()}>
            kill
          </Button>
        </EditOnly>
      </Table.Td>
    </Table.Tr>
  );
}

/** The clients of a media item (spec 001 §2 Clients). */
export function SessionsTable({ sessions }: { sessions: ClientSession[] }) {
  return (
    <Table aria-label="clients" withTableBorder>
      <Table.Thead>
        <Table.Tr>
          {COLUMNS.map((column) => (
            <Table.Th key={column}>{column}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {sessions.map((session) => (
          <SessionRow key={session.id} session={session} />
        ))}
      </Table.Tbody>
    </Table>
  );
}
