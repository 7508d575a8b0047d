import { ActionIcon, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useSaveFlow } from '../../api/use-save-flow.js';
import { SaveStatus } from '../../components/SaveStatus.js';
import { deleteConfirmation } from '../media-list/location-rows.js';

const SOURCES = ['sources'] as const;

/** Deletes a mirror after the confirmation of spec 000 §5; the delete saves null for its position. */
export function MirrorDeleteButton({
  position,
  label,
  hasDvr,
}: {
  position: string;
  label: string;
  hasDvr: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const flow = useSaveFlow({ keys: SOURCES });
  const confirm = async () => {
    await flow.deleteItem(['sources', position]);
    setAsking(false);
  };
  return (
    <>
      <ActionIcon variant="subtle" color="red" aria-label={`Delete ${label}`} onClick={() => setAsking(true)}>
        <svg viewBox="0 0 16 16" width={14} height={14} aria-hidden="true">
          <path d="M3 4h10M6 4V2.5h4V4M4.5 4l.7 9.5h5.6l.7-9.5" stroke="currentColor" fill="none" />
        </svg>
      </ActionIcon>
      <Modal opened={asking} onClose={() => setAsking(false)} title="Delete mirror">
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
