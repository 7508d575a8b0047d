import { Badge, Button } from '@mantine/core';
import type { SourceStatus } from './source-entries.js';

/** What a source row shows on its right: its state, or the button that makes it the active one. */
export function SourceStatusCell({
  status,
  locked,
  onSwitch,
}: {
  status: SourceStatus;
  locked: boolean;
  onSwitch: () => void;
}) {
  if (status === 'switch')
    return (
      <Button size="xs" variant="default" disabled={locked} onClick={onSwitch}>
        switch
      </Button>
    );
  const color = status === 'online' ? 'green' : status === 'offline' ? 'red' : 'yellow';
  return (
    <Badge color={color} variant="light" aria-label="source status">
      {status}
    </Badge>
  );
}
