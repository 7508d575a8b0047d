import { Text } from '@mantine/core';
import { useMemo } from 'react';
import { useMediaName } from '../item-page/use-media-name.js';
import { SessionsTable } from './SessionsTable.js';
import { useSessions } from './use-sessions.js';

/** The clients of the given media items, polled while shown (spec 001 §2 Clients). */
export function ClientsView({ names }: { names: readonly string[] }) {
  const sessions = useSessions(names);
  if (!sessions) return <Text>Loading...</Text>;
  if (sessions.length === 0) return <Text>No information about clients was recorded.</Text>;
  return <SessionsTable sessions={sessions} />;
}

/** The clients tab of a stream or a published stream. */
export function ClientsTab() {
  const name = useMediaName();
  const names = useMemo(() => [name], [name]);
  return <ClientsView names={names} />;
}
