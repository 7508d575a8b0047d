/**
 * Pure rules of the stream page's output and input tabs (spec 001 §4, §5, §9), shared by the
 * console and its tests.
 */

/** The protocols of a stream's output (spec 001 §9). */
export const OUTPUT_PROTOCOLS = [
  'hls',
  'mss',
  'hds',
  'mpegts',
  'dash',
  'm4f',
  'm4s',
  'rtmp',
  'rtsp',
] as const;
export type OutputProtocol = (typeof OUTPUT_PROTOCOLS)[number];

/** A protocol switch (spec 001 §4): except (false), neutral (unset), only (true). */
export type ProtocolSwitch = 'except' | 'neutral' | 'only';

export function switchOf(value: boolean | undefined): ProtocolSwitch {
  return value === true ? 'only' : value === false ? 'except' : 'neutral';
}

export function switchValue(state: ProtocolSwitch): boolean | null {
  return state === 'only' ? true : state === 'except' ? false : null;
}

/**
 * A protocol's URL is disabled when explicitly off, or unset while another protocol is 'only';
 * it is hidden when explicitly false (spec 001 §4).
 */
export function protocolUrlState(
  protocols: Partial<Record<string, boolean>> | undefined,
  protocol: string,
): { disabled: boolean; hidden: boolean } {
  const own = protocols?.[protocol];
  const anotherOnly = Object.entries(protocols ?? {}).some(([p, v]) => p !== protocol && v === true);
  return { disabled: own === false || (own === undefined && anotherOnly), hidden: own === false };
}

/** Prepush (spec 001 §4): disabled (false), enabled (unset), enabled specific (seconds). */
export type PrepushMode = 'off' | 'on' | 'seconds';
export const PREPUSH_DEFAULT_SECONDS = 3;

export function prepushMode(value: false | number | null | undefined): PrepushMode {
  return value === false ? 'off' : typeof value === 'number' ? 'seconds' : 'on';
}

/** The stored value on choosing a mode: 3 s when a specific value is selected (spec 001 §9). */
export function prepushValue(mode: PrepushMode): false | number | null {
  return mode === 'off' ? false : mode === 'seconds' ? PREPUSH_DEFAULT_SECONDS : null;
}

/** Segment duration: typed in seconds, stored in milliseconds (spec 001 §9). */
export const segmentDurationMs = (seconds: number): number => Math.round(seconds * 1000);
export const segmentDurationSeconds = (ms: number): number => ms / 1000;

/**
 * Source pids (spec 001 §5): comma-separated integers, only those above 0 and below 8192 kept;
 * a trailing comma is kept so typing can go on. Empty removes the option (null).
 */
export function parsePids(text: string): string | null {
  const kept = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => /^\d+$/.test(part))
    .map((part) => Number.parseInt(part, 10))
    .filter((pid) => pid > 0 && pid < 8192);
  const trailing = /,\s*$/.test(text) && kept.length > 0 ? ',' : '';
  const value = kept.join(',') + trailing;
  return value === '' ? null : value;
}

/** Network axis units of the traffic chart (spec 001 §9): switching at 700, 700k and 700M. */
export function trafficAxisLabel(bitsPerSecond: number): string {
  const abs = Math.abs(bitsPerSecond);
  if (abs >= 700e6) return `${round(bitsPerSecond / 1e9)}G`;
  if (abs >= 700e3) return `${round(bitsPerSecond / 1e6)}M`;
  if (abs >= 700) return `${round(bitsPerSecond / 1e3)}k`;
  return `${round(bitsPerSecond)}`;
}

const round = (value: number) => String(Math.round(value * 100) / 100);
