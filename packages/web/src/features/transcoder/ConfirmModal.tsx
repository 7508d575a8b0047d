import { Button, Group, Modal, Stack, Text } from '@mantine/core';

interface ConfirmModalProps {
  opened: boolean;
  title: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A yes/no question before an action the operator cannot take back. */
export function ConfirmModal({
  opened,
  title,
  question,
  confirmLabel,
  onConfirm,
  onCancel,
}: ConfirmModalProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title}>
      <Stack gap="sm">
        <Text>{question}</Text>
        <Group gap="xs">
          <Button onClick={onConfirm}>{confirmLabel}</Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
