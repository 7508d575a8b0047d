import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';

/**
 * Spec 002 §2: every entry has a remove button; the file is removed only after the operator
 * confirms (there is no undo on disk). A refused remove shows the server's reason in the dialog.
 */
export function RemoveFileButton({ name, onRemove }: { name: string; onRemove: () => Promise<void> }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const close = () => {
    setAsking(false);
    setError(undefined);
  };
  const confirm = async () => {
    setBusy(true);
    try {
      await onRemove();
      close();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        size="compact-xs"
        variant="subtle"
        color="red"
        aria-label={`remove ${name}`}
        onClick={() => setAsking(true)}
      >
        remove
      </Button>
      <Modal opened={asking} onClose={close} title="Remove file">
        <Stack gap="sm">
          <Text>Really remove {name}?</Text>
          {error && (
            <Text c="red" size="sm" role="alert">
              {error}
            </Text>
          )}
          <Group gap="xs">
            <Button color="red" loading={busy} onClick={() => void confirm()}>
              Remove
            </Button>
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
