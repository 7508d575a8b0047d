import { useCallback, useRef } from 'react';
import { useLiveSync } from '../../api/live-context.js';
import { useEdit } from '../../api/use-live.js';
import { useSaveFlow } from '../../api/use-save-flow.js';
import { useDebouncedCommit } from '../../components/use-debounced-commit.js';
import { PEER_EDIT_DEBOUNCE_MS, type Peers } from './peer-lines.js';

const PEERS_KEYS = ['peers'] as const;

/**
 * Peer edits save themselves (spec 002 §5, §9): each one goes into the live config store at once and
 * the peers are sent 1000 ms after the last edit, one save at a time; an edit made while a save
 * runs is sent when it ends. A pending save still runs when the page is left.
 */
export function usePeersAutosave() {
  const { store } = useLiveSync();
  const edit = useEdit();
  const flow = useSaveFlow({ keys: PEERS_KEYS });
  const debounce = useDebouncedCommit(PEER_EDIT_DEBOUNCE_MS);
  const running = useRef(false);
  const again = useRef(false);
  const { save } = flow;

  const saveNow = useCallback(async () => {
    if (running.current) {
      again.current = true;
      return;
    }
    running.current = true;
    try {
      do {
        again.current = false;
        // Nothing of the peers differs from the server's (a line typed back as it was): nothing to send.
        if (store.getState().edits.peers === undefined) break;
        if (!(await save())) break;
      } while (again.current);
    } finally {
      running.current = false;
    }
  }, [store, save]);

  const commit = useCallback(
    (peers: Peers | null) => {
      edit(['peers'], peers);
      debounce.schedule(() => void saveNow());
    },
    [edit, debounce, saveNow],
  );

  return { commit, flush: debounce.flush, saving: flow.saving, status: flow.status };
}
