import { Group } from '@mantine/core';
import { useCallback } from 'react';
import type { LiveState } from '../../api/live-state.js';
import type { LiveStore } from '../../api/live-store.js';
import { useLive } from '../../api/use-live.js';
import { ItemDeleteButton } from '../item-page/ItemDeleteButton.js';
import { StreamRestartButton } from './StreamRestartButton.js';

/** Whether the stream has a DVR: the delete confirmation then says the archive remains (spec 000 §5). */
function useHasDvr(name: string): boolean {
  const selector = useCallback(
    (state: LiveState, store: LiveStore) =>
      Boolean((store.viewAt(state, ['streams', name]) as { dvr?: unknown } | undefined)?.dvr),
    [name],
  );
  return useLive(selector);
}

/**
 * Restart and Delete, on the stream page (buttons) and in a media list row (icons). Delete asks
 * "Really delete {name} from config?", saves null for the stream and returns to the list.
 */
export function StreamActions({ name, icons = false }: { name: string; icons?: boolean }) {
  const hasDvr = useHasDvr(name);
  return (
    <Group
      gap={icons ? 2 : 'sm'}
      wrap="nowrap"
      role={icons ? undefined : 'group'}
      aria-label={icons ? undefined : `${name} actions`}
    >
      <StreamRestartButton name={name} icon={icons} />
      <ItemDeleteButton section="streams" itemKey={name} label={name} kind="stream" hasDvr={hasDvr} />
    </Group>
  );
}
