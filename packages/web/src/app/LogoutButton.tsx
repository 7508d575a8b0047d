import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useLiveSync } from '../api/live-context.js';
import { logOut } from '../api/session.js';

/** Logout clears the stored credentials, the session cookie and the stores, then reloads (spec 000 §4). */
export function LogoutButton() {
  const { store, connection } = useLiveSync();
  const queryClient = useQueryClient();
  const onClick = async () => {
    connection.stop();
    store.reset();
    queryClient.clear();
    await logOut();
    window.location.reload();
  };
  return (
    <Button variant="subtle" size="xs" onClick={() => void onClick()}>
      Logout
    </Button>
  );
}
