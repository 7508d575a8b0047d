import type { ServerStats } from '@sluice/api';

/** The server's error strings: the status entries whose key starts with error_ (spec 000 §3). */
export function errorNotices(stats: ServerStats | undefined): { key: string; text: string }[] {
  return Object.entries(stats?.status ?? {})
    .filter(([key, text]) => key.startsWith('error_') && text !== '')
    .map(([key, text]) => ({ key, text }));
}

/** Long or multiline messages start collapsed and expand on demand. */
export const LONG_NOTICE_CHARS = 120;
export const isLongNotice = (text: string) => text.length > LONG_NOTICE_CHARS || text.includes('\n');
