import { Alert, Button, Group, Text } from '@mantine/core';
import { useCallback } from 'react';
import type { Path } from '../api/edits.js';
import { itemKeyOf } from '../api/edit-bases.js';
import { useLiveSync } from '../api/live-context.js';
import type { LiveState } from '../api/live-state.js';
import { useLive } from '../api/use-live.js';

/**
 * Issue 17: shown above an item's tabs while it holds unsaved edits and someone else changed it
 * (live sync brought a different value, or a save was refused 409). "Reload" takes their version
 * and drops these edits; "Keep my edits" lets the next save overwrite theirs knowingly.
 */
export function ChangedElsewhereNotice({ item, what }: { item: Path; what: string }) {
  const sync = useLiveSync();
  const key = itemKeyOf(item);
  const select = useCallback((state: LiveState) => state.elsewhere[key] === true, [key]);
  const changed = useLive(select);
  if (!changed) return null;
  return (
    <Alert color="orange" role="alert" title={`This ${what} was changed elsewhere`}>
      <Text size="sm" mb="xs">
        Someone saved a change to it since you started editing. Your unsaved edits are still here; saving them
        now would overwrite that change.
      </Text>
      <Group gap="sm">
        <Button size="xs" onClick={() => sync.store.discardItem(item)}>
          Reload
        </Button>
        <Button size="xs" variant="default" onClick={() => sync.store.rebase(item)}>
          Keep my edits
        </Button>
      </Group>
    </Alert>
  );
}
