import type { MediaInfo } from '@sluice/api';
import { useCallback } from 'react';
import type { LiveState } from '../../api/live-state.js';
import { useLive, useView } from '../../api/use-live.js';

/** An opened VOD file's figures in the live view (`files`, issue 16): present while it has sessions. */
export interface LiveFileStats {
  client_count?: number;
  bytes_out?: number;
  /** ms since epoch. */
  opened_at?: number;
  /** kbit/s sent to its clients, over the last seconds. */
  out_bandwidth?: number;
  media_info?: MediaInfo;
}

export interface LiveFile {
  name?: string;
  prefix?: string;
  stats?: LiveFileStats;
}

/** The live view's `files` section: opened files keyed by PREFIX/PATH. */
export type LiveFiles = Record<string, LiveFile | undefined>;

/** An opened file as the live view holds it; undefined while nobody plays it. */
export const useLiveFile = (name: string): LiveFile | undefined => useView<LiveFile>(['files', name]);

/**
 * The VOD a file name PREFIX/PATH belongs to: the longest configured prefix it starts with (a
 * prefix may hold '/' itself).
 */
export function vodPrefixOf(name: string, prefixes: readonly string[]): string | undefined {
  return prefixes
    .filter((prefix) => name.startsWith(`${prefix}/`))
    .reduce<string | undefined>(
      (best, p) => (best === undefined || p.length > best.length ? p : best),
      undefined,
    );
}

/** The file's VOD prefix: the one the server names while it is opened, else found among the VODs. */
export function useFilePrefix(name: string): string | undefined {
  const select = useCallback(
    (state: LiveState) => {
      const files = (state.server as { files?: LiveFiles }).files;
      return files?.[name]?.prefix ?? vodPrefixOf(name, Object.keys(state.server.vods ?? {}));
    },
    [name],
  );
  return useLive(select);
}
