import { Button, Fieldset, Group, Stack, TextInput } from '@mantine/core';
import { useCanEdit } from '../../api/access.js';
import { useChanged, useView } from '../../api/use-live.js';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { EditOnly } from '../../components/EditOnly.js';
import type { Peers } from './peer-lines.js';
import { usePeerRows } from './use-peer-rows.js';

/**
 * The editable peer list (spec 002 §2 Settings): one host:port line per peer with a 'remove'
 * button, and a blank row for adding one. View-only sessions see the lines only.
 */
export function PeersField({ onCommit }: { onCommit: (peers: Peers | null) => void }) {
  const canEdit = useCanEdit();
  const changed = useChanged(['peers']);
  const draft = usePeerRows(useView<Peers>(['peers']), onCommit);
  const rows = canEdit ? draft.rows : draft.rows.slice(0, -1);
  return (
    <Fieldset legend={<ChangedLabel label="Peers" changed={changed} />}>
      <Stack gap={6}>
        {rows.map((row, index) => {
          const blank = index === draft.rows.length - 1;
          return (
            <Group
              key={row.id}
              gap="xs"
              wrap="nowrap"
              role="group"
              aria-label={blank ? 'New peer' : `Peer ${index + 1}`}
            >
              <TextInput
                aria-label="host:port"
                placeholder="host:port"
                value={row.text}
                onChange={(event) => draft.change(row.id, event.currentTarget.value)}
                onBlur={() => draft.blur(row.id)}
                w={320}
              />
              {!blank && (
                <EditOnly>
                  <Button variant="subtle" color="red" size="xs" onClick={() => draft.remove(row.id)}>
                    remove
                  </Button>
                </EditOnly>
              )}
            </Group>
          );
        })}
      </Stack>
    </Fieldset>
  );
}
