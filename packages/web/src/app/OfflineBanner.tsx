import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useConnectionState } from '../api/use-live.js';

export const OFFLINE_TEXT = 'Offline mode, connection with server has been lost.';

/** Spec 000 §2: the header's message while the events socket is down; `fallback` otherwise. */
export function OfflineBanner({ fallback }: { fallback: ReactNode }) {
  if (useConnectionState() !== 'offline') return fallback;
  return (
    <Text c="red" fw={600} size="sm" role="alert">
      {OFFLINE_TEXT}
    </Text>
  );
}
