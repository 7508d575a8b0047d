import type { StreamStats } from '@sluice/api';
import { useCallback } from 'react';
import type { LiveState } from '../../api/live-state.js';
import { useLive, useView } from '../../api/use-live.js';

type Lives = Record<string, { streams?: Record<string, unknown> }>;

/** The prefix of the live location a stream is published into, searching them all (spec 001 §2). */
export function usePublishedLocation(name: string): string | undefined {
  const select = useCallback(
    (state: LiveState) => {
      const lives = (state.server.lives ?? {}) as Lives;
      return Object.keys(lives).find((prefix) => Object.hasOwn(lives[prefix]?.streams ?? {}, name));
    },
    [name],
  );
  return useLive(select);
}

export const usePublishedStats = (prefix: string, name: string) =>
  useView<StreamStats>(['lives', prefix, 'streams', name, 'stats']);
