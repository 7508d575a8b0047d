import { Button } from '@mantine/core';
import { useLiveSync } from '../api/live-context.js';
import { logOut } from '../api/session.js';

/**
 * Logout clears the stored credentials, the session cookie and the stores, then reloads (spec 000
 * §4). The query cache goes with the reload: clearing it first would refetch with no credentials.
 */
export function LogoutButton() {
  const { store, connection } = useLiveSync();
  const onClick = async () => {
    connection.stop();
    await logOut();
    store.reset();
    window.location.reload();
  };
  return (
    <Button variant="subtle" size="xs" onClick={() => void onClick()}>
      Logout
    </Button>
  );
}
