import { Button } from '@mantine/core';
import { useLiveSync } from '../api/live-context.js';
import { logOut } from '../api/session.js';
import { BASENAME } from './routes.js';

/**
 * Logout clears the stored credentials, the session cookie and the stores, then loads the login
 * page in place of the current entry (spec 000 §4), so Back does not return to a console page. The
 * query cache goes with the load: clearing it first would refetch with no credentials.
 */
export function LogoutButton({ className }: { className?: string }) {
  const { store, connection } = useLiveSync();
  const onClick = async () => {
    connection.stop();
    await logOut();
    store.reset();
    window.location.replace(BASENAME);
  };
  return (
    <Button variant="subtle" size="xs" className={className} onClick={() => void onClick()}>
      Logout
    </Button>
  );
}
