import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';

export interface PendingImport {
  fileName: string;
  text: string;
  /** One line per section the import changes (import-summary-text.ts); empty when nothing changes. */
  lines: string[];
}

interface ImportConfirmModalProps {
  pending: PendingImport | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Upload config's question: what the chosen file changes, before anything is saved. */
export function ImportConfirmModal({ pending, onConfirm, onCancel }: ImportConfirmModalProps) {
  return (
    <Modal opened={pending !== undefined} onClose={onCancel} title="Upload config" size="lg">
      {pending && (
        <Stack gap="sm">
          <Text size="sm">
            {pending.fileName} replaces the whole config.{' '}
            {pending.lines.length > 0 ? 'It changes:' : 'It holds the config as it is: nothing changes.'}
          </Text>
          {pending.lines.length > 0 && (
            <List size="sm" aria-label="Changes">
              {pending.lines.map((line) => (
                <List.Item key={line}>{line}</List.Item>
              ))}
            </List>
          )}
          <Text size="sm" c="dimmed">
            Comments in the config file are kept for what does not change.
          </Text>
          <Group gap="xs">
            <Button onClick={onConfirm}>Confirm</Button>
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
