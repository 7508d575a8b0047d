import type { Delta } from './edits.js';
import { API_BASE } from './http-client.js';
import { LiveConnection } from './live-connection.js';
import { LiveStore } from './live-store.js';
import { loginCount } from './session.js';
import { showLoginAfterSessionEnd, stillLoggedIn } from './session-end.js';

/** The live store and the socket feeding it: one of each for the whole console. */
export interface LiveSync {
  store: LiveStore;
  connection: LiveConnection;
  /** After a successful save (answered as `revision`): show `delta` until the server's next answer confirms it. */
  confirmSaved(delta: Delta, revision?: string): Promise<void>;
  /** Listens to the topic events (log.entry, pulse.traffic, sessions); returns the unsubscribe. */
  onEvent(listener: EventListener): () => void;
}

export type EventListener = (event: { event: string } & Record<string, unknown>) => void;

/**
 * ws(s)://host/flussonic/api/events. No credentials in the URL (they would sit in logs and
 * history): a same-origin upgrade carries the session cookie.
 */
export function eventsUrl(location: Location = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${API_BASE}/events`;
}

export function createLiveSync(): LiveSync {
  const store = new LiveStore();
  const listeners = new Set<EventListener>();
  const connection = new LiveConnection(() => new WebSocket(eventsUrl()), {
    onConfig: (data) => store.replaceServer(data),
    onDelta: (data) => store.applyServerDelta(data),
    onConnection: (state) => store.setConnection(state),
    onEvent: (event) => {
      for (const listener of listeners) listener(event);
    },
    stillLoggedIn,
    loginCount,
    onSessionEnded: () => {
      store.reset();
      showLoginAfterSessionEnd();
    },
  });
  return {
    store,
    connection,
    confirmSaved: async (delta, revision) => {
      store.markSaved(delta, revision);
      await connection.refreshNow();
      store.clearPending();
    },
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
