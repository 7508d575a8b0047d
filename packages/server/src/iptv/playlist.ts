import type { Config, Stream } from '@sluice/api';

export interface PlaylistOptions {
  /** `http://host:port`, no trailing slash. */
  base: string;
  /** The user's key: every url's ?token=. */
  token: string;
  type: 'hls' | 'mpegts';
  /** The recorded archive depth of a stream now, in seconds (its stats' dvr_info.depth). */
  recordedDepthS?: (name: string) => number | undefined;
}

const DAY_S = 86_400;

/** An attribute value: m3u has no escapes, so quotes and line breaks can't be kept. */
const attr = (value: string) => value.replace(/"/g, "'").replace(/[\r\n]+/g, ' ');
const text = (value: string) => value.replace(/[\r\n]+/g, ' ');
const metaString = (stream: Stream, key: string): string | undefined => {
  const value = (stream.meta as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};
const pathOf = (name: string) => name.split('/').map(encodeURIComponent).join('/');

/** The IPTV-enabled streams (meta.iptv, not disabled) in position order (then by name). */
export function iptvStreams(config: Config): [string, Stream][] {
  return Object.entries(config.streams ?? {})
    .filter(([, s]) => s.meta?.iptv === true && s.disabled !== true)
    .sort(
      ([an, a], [bn, b]) =>
        (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER) ||
        (an < bn ? -1 : an > bn ? 1 : 0),
    );
}

/** catchup-days: the archive depth the config sets (the stream's dvr, else its global dvr), else the recorded one. */
function catchupDays(config: Config, name: string, stream: Stream, recorded?: number): number | undefined {
  const dvr = stream.dvr;
  if (!dvr) return undefined;
  const global = dvr.reference
    ? (config.dvrs?.[dvr.reference] as { dvr_limit?: number } | undefined)
    : undefined;
  const depthS = dvr.dvr_limit ?? global?.dvr_limit ?? recorded ?? 0;
  return Math.max(1, Math.ceil(depthS / DAY_S));
}

/**
 * The m3u a subscriber's apps load (docs/api.md "IPTV"): one entry per stream, with tvg-* and
 * group-title from meta, and for streams with DVR the catch-up attributes of Flussonic's scheme,
 * whose archive urls Sluice's DVR serves (index-{utc}-{duration}.m3u8, timeshift_abs-{utc}.ts).
 */
export function buildPlaylist(config: Config, options: PlaylistOptions): string {
  const epg = (config.plugins?.iptv as { epg_url?: unknown } | undefined)?.epg_url;
  const lines = [
    typeof epg === 'string' && epg.trim() !== ''
      ? `#EXTM3U url-tvg="${attr(epg.trim())}" x-tvg-url="${attr(epg.trim())}"`
      : '#EXTM3U',
  ];
  const token = `?token=${encodeURIComponent(options.token)}`;
  for (const [name, stream] of iptvStreams(config)) {
    const title = stream.title?.trim() || name;
    const root = `${options.base}/${pathOf(name)}`;
    const live = options.type === 'mpegts' ? `${root}/mpegts${token}` : `${root}/index.m3u8${token}`;
    const attrs = [`tvg-id="${attr(metaString(stream, 'tvg_id') ?? name)}"`, `tvg-name="${attr(title)}"`];
    const logo = metaString(stream, 'logo');
    if (logo) attrs.push(`tvg-logo="${attr(logo)}"`);
    const group = metaString(stream, 'group');
    if (group) attrs.push(`group-title="${attr(group)}"`);
    const days = catchupDays(config, name, stream, options.recordedDepthS?.(name));
    if (days !== undefined) {
      const source =
        options.type === 'mpegts'
          ? `${root}/timeshift_abs-{utc}.ts${token}`
          : `${root}/index-{utc}-{duration}.m3u8${token}`;
      attrs.push('catchup="flussonic"', `catchup-days="${days}"`, `catchup-source="${attr(source)}"`);
    }
    lines.push(`#EXTINF:-1 ${attrs.join(' ')},${text(title)}`, live);
  }
  return `${lines.join('\n')}\n`;
}
