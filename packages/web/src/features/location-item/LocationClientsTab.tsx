import { useCallback } from 'react';
import type { LiveState } from '../../api/live-state.js';
import { useLive } from '../../api/use-live.js';
import { ClientsView } from '../clients/ClientsTab.js';
import { useMediaName } from '../item-page/use-media-name.js';

/** The published streams' names, joined: a string keeps the selection stable between deltas. */
function usePublishedNames(prefix: string): string {
  const select = useCallback(
    (state: LiveState) => Object.keys(state.server.lives?.[prefix]?.streams ?? {}).join('\n'),
    [prefix],
  );
  return useLive(select);
}

/** A location's clients: those of every stream published into it. */
export function LocationClientsTab() {
  const joined = usePublishedNames(useMediaName());
  return <ClientsView key={joined} names={joined === '' ? [] : joined.split('\n')} />;
}
