import { formatLifetime } from '../../lib/duration.js';

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Bytes in binary units (spec 001 §9 size formats), one decimal above bytes. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${BYTE_UNITS[unit]}`;
}

/** A session's duration, given in ms. */
export const formatDuration = (ms: number): string => formatLifetime(Math.floor(ms / 1000));
