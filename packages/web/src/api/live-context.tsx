import { createContext, type ReactNode, use, useEffect, useState } from 'react';
import { createLiveSync, type LiveSync } from './live-sync.js';
import { reloadRestoredPageWithoutLogin } from './session-end.js';

const LiveContext = createContext<LiveSync | null>(null);

/** Opens the one events socket of the console for as long as the logged-in app is mounted. */
export function LiveProvider({ children }: { children: ReactNode }) {
  const [sync] = useState(createLiveSync);
  useEffect(() => {
    sync.connection.start();
    const stopWatching = reloadRestoredPageWithoutLogin();
    return () => {
      stopWatching();
      sync.connection.stop();
    };
  }, [sync]);
  return <LiveContext value={sync}>{children}</LiveContext>;
}

export function useLiveSync(): LiveSync {
  const sync = use(LiveContext);
  if (!sync) throw new Error('useLiveSync needs a LiveProvider above it');
  return sync;
}
