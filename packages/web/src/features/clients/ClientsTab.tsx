import { Text } from '@mantine/core';
import { useMediaName } from '../item-page/use-media-name.js';
import { SessionsTable } from './SessionsTable.js';
import { useSessions } from './use-sessions.js';

/** The clients tab of a stream, location or published stream: its sessions, polled while open. */
export function ClientsTab() {
  const sessions = useSessions(useMediaName());
  if (!sessions) return <Text>Loading...</Text>;
  if (sessions.length === 0) return <Text>No information about clients was recorded.</Text>;
  return <SessionsTable sessions={sessions} />;
}
