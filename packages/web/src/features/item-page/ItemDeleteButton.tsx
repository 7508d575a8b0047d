import { useCanEdit } from '../../api/access.js';
import { ActionIcon, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useSaveFlow } from '../../api/use-save-flow.js';
import { SaveStatus } from '../../components/SaveStatus.js';
import { deleteConfirmation } from '../media-list/location-rows.js';

/**
 * Deletes a stream, a location or a mirror after the confirmation of spec 000 §5 ("Really delete <item name>
 * from config?", plus the DVR line); the delete saves null for `[section, key]`.
 */
export function ItemDeleteButton({
  section,
  itemKey,
  label,
  kind,
  hasDvr,
}: {
  section: 'streams' | 'lives' | 'sources';
  itemKey: string;
  /** The item name the confirmation and the button's accessible name use. */
  label: string;
  /** 'stream', 'location' or 'mirror': the dialog's title. */
  kind: string;
  hasDvr: boolean;
}) {
  const canEdit = useCanEdit();
  const [asking, setAsking] = useState(false);
  const keys = useMemo(() => [section], [section]);
  const flow = useSaveFlow({ keys });
  const confirm = async () => {
    await flow.deleteItem([section, itemKey]);
    setAsking(false);
  };
  if (!canEdit) return null;
  return (
    <>
      <ActionIcon variant="subtle" color="red" aria-label={`Delete ${label}`} onClick={() => setAsking(true)}>
        <svg viewBox="0 0 16 16" width={14} height={14} aria-hidden="true">
          <path d="M3 4h10M6 4V2.5h4V4M4.5 4l.7 9.5h5.6l.7-9.5" stroke="currentColor" fill="none" />
        </svg>
      </ActionIcon>
      <Modal opened={asking} onClose={() => setAsking(false)} title={`Delete ${kind}`}>
        <Stack gap="sm">
          {deleteConfirmation(label, hasDvr).map((line) => (
            <Text key={line}>{line}</Text>
          ))}
          <Group gap="xs">
            <Button color="red" onClick={() => void confirm()} loading={flow.saving}>
              Delete
            </Button>
            <Button variant="default" onClick={() => setAsking(false)}>
              Cancel
            </Button>
            <SaveStatus status={flow.status} />
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
