import { ActionIcon, Button, Group, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { useCanEdit } from '../../api/access.js';
import { restartStream } from './restart-stream.js';

/**
 * Restart (spec 000 §7 stream_restart): a button on the stream page, an icon in the list row.
 * Locked while the call runs; a failure is shown beside the button (the icon's tooltip in a row) (the server's reason, such
 * as a disabled stream) and logged.
 */
export function StreamRestartButton({ name, icon = false }: { name: string; icon?: boolean }) {
  const canEdit = useCanEdit();
  const [running, setRunning] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  if (!canEdit) return null;
  const restart = async () => {
    setRunning(true);
    setFailure(undefined);
    try {
      await restartStream(name);
    } catch (error) {
      console.warn(`Restarting ${name} failed:`, error);
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setRunning(false);
    }
  };
  if (icon)
    return (
      <Tooltip label={failure ?? 'Restart'}>
        <ActionIcon
          variant="subtle"
          aria-label={`Restart ${name}`}
          loading={running}
          color={failure ? 'red' : undefined}
          onClick={() => void restart()}
        >
          <svg viewBox="0 0 16 16" width={14} height={14} aria-hidden="true">
            <path d="M13 8a5 5 0 1 1-1.5-3.5M13 2.5v3h-3" stroke="currentColor" fill="none" />
          </svg>
        </ActionIcon>
      </Tooltip>
    );
  return (
    <Group gap="xs">
      <Button variant="default" loading={running} onClick={() => void restart()}>
        Restart
      </Button>
      {failure && (
        <Text c="red" size="sm" role="alert">
          {failure}
        </Text>
      )}
    </Group>
  );
}
