import { Group, Progress, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { SAVE_TICK_MS, SAVED_TEXT, type SaveStatus as Status, savingView } from '../api/save-progress.js';

/** Re-renders once a tick while a save runs, for the progress bar. */
function useElapsed(startedAt: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), SAVE_TICK_MS);
    return () => clearInterval(timer);
  }, [startedAt]);
  return Math.max(0, now - startedAt);
}

function SavingProgress({ startedAt }: { startedAt: number }) {
  const view = savingView(useElapsed(startedAt));
  return (
    <Group gap="sm" wrap="nowrap" role="status">
      <Text size="sm">{view.text}</Text>
      <Progress value={view.percent} w={160} animated aria-label={view.text} />
    </Group>
  );
}

/** The save indicator of spec 000 §4: hidden; "Saving config..." with a bar; "Saved." for 3 s. */
export function SaveStatus({ status }: { status: Status }) {
  switch (status.phase) {
    case 'idle':
      return null;
    case 'saving':
      return <SavingProgress startedAt={status.startedAt} />;
    case 'saved':
      return (
        <Text size="sm" c="green" role="status">
          {SAVED_TEXT}
        </Text>
      );
    case 'failed':
      return (
        <Text size="sm" c="red" role="alert">
          {status.message}
        </Text>
      );
  }
}
