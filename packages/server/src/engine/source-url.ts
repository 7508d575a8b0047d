import { networkInterfaces } from 'node:os';
import type { SourceEntry } from '@sluice/api';
import { type RemuxInput, TEST_SOURCE_DEFAULTS, type TestSourceOptions } from './ffmpeg/args.js';

/** How one source URL is read: by Node directly (udp, tshttp) or through an ffmpeg child. */
export type SourcePlan =
  | { kind: 'udp'; bindAddress: string; port: number; multicastGroup?: string; multicastInterface?: string }
  | { kind: 'tshttp'; url: string; userAgent?: string }
  | { kind: 'remux'; input: RemuxInput }
  | { kind: 'test'; options: TestSourceOptions }
  | { kind: 'publish' };

export class SourceUrlError extends Error {}

/**
 * Reads a source URL (spec 001 §3 "Input source entry", §9 source option panels):
 *   udp://[IFACE@]HOST:PORT      MPEG-TS datagrams; a multicast HOST is joined, on IFACE (name or address) if given
 *   tshttp(s)://HOST/PATH        MPEG-TS over an HTTP(S) body
 *   rtmp(s)://, rtsp(s)://       remuxed by ffmpeg (rtsp: `rtp=udp` option, `tracks`)
 *   hls(s)://HOST/PATH.m3u8      an HLS stream fetched over HTTP(S), remuxed by ffmpeg
 *   srt://HOST:PORT?passphrase=  MPEG-TS over SRT (ffmpeg's libsrt; caller unless mode=listener)
 *   file:///PATH                 a media file played in a loop at its own pace
 *   test://[?size=WxH&fps=N&bitrate=KBPS&tone=HZ]
 *                                Sluice's built-in test source: ffmpeg's moving test pattern with a
 *                                sine tone, H.264 (yuv420p, keyframe every 2 s) and AAC
 *   publish://                   what a publisher sends (RTMP to rtmp://HOST/static/NAME, or /NAME when it holds a '/')
 */
export function planSource(entry: SourceEntry, timeoutSeconds: number): SourcePlan {
  const raw = entry.url.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1]?.toLowerCase();
  const rest = raw.slice((scheme?.length ?? 0) + 3);
  const userAgent = entry.user_agent;
  switch (scheme) {
    case 'udp':
      return planUdp(rest);
    case 'tshttp':
    case 'tshttps':
      return {
        kind: 'tshttp',
        url: `${scheme === 'tshttps' ? 'https' : 'http'}://${rest}`,
        ...(userAgent ? { userAgent } : {}),
      };
    case 'rtmp':
    case 'rtmps':
      return remux({ kind: 'rtmp', input: raw, timeoutSeconds, userAgent });
    case 'rtsp':
    case 'rtsps':
      return remux({
        kind: 'rtsp',
        input: raw,
        timeoutSeconds,
        rtpUdp: entry.rtp === 'udp',
        tracks: entry.tracks,
      });
    case 'srt':
      return remux({ kind: 'srt', input: raw, timeoutSeconds });
    case 'hls':
    case 'hlss':
      return remux({
        kind: 'hls',
        input: `${scheme === 'hlss' ? 'https' : 'http'}://${rest}`,
        timeoutSeconds,
        userAgent,
      });
    case 'file': {
      const path = decodeURIComponent(rest);
      if (!path.startsWith('/'))
        throw new SourceUrlError(`file source needs an absolute path (file:///path), got ${raw}`);
      return remux({ kind: 'file', input: path, timeoutSeconds });
    }
    case 'test':
      return { kind: 'test', options: testOptions(rest) };
    case 'publish':
      return { kind: 'publish' };
    default:
      throw new SourceUrlError(
        `unsupported source ${raw}: use udp, tshttp(s), rtmp(s), rtsp(s), srt, hls(s), file or test`,
      );
  }
}

function remux(input: RemuxInput): SourcePlan {
  const clean = Object.fromEntries(
    Object.entries(input).filter(([, v]) => v !== undefined),
  ) as unknown as RemuxInput;
  return { kind: 'remux', input: clean };
}

function planUdp(rest: string): SourcePlan {
  const at = rest.lastIndexOf('@');
  const iface = at >= 0 ? rest.slice(0, at) : '';
  const hostPort = (at >= 0 ? rest.slice(at + 1) : rest).split(/[/?]/)[0]!;
  const match = /^\[?([^\]]*?)\]?:(\d+)$/.exec(hostPort);
  const port = Number(match?.[2]);
  if (!match || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new SourceUrlError(`udp source needs HOST:PORT, e.g. udp://239.0.0.1:1234, got udp://${rest}`);
  }
  const host = match[1] || '0.0.0.0';
  if (!isMulticast(host)) return { kind: 'udp', bindAddress: host, port };
  // A multicast receiver binds the port on all addresses and joins the group on the interface.
  const multicastInterface = iface ? interfaceAddress(iface) : undefined;
  return {
    kind: 'udp',
    bindAddress: '0.0.0.0',
    port,
    multicastGroup: host,
    ...(multicastInterface ? { multicastInterface } : {}),
  };
}

/** 224.0.0.0/4 is IPv4 multicast. */
function isMulticast(host: string): boolean {
  const first = Number(host.split('.')[0]);
  return /^\d+\.\d+\.\d+\.\d+$/.test(host) && first >= 224 && first <= 239;
}

function interfaceAddress(iface: string): string {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(iface)) return iface;
  const address = networkInterfaces()[iface]?.find((a) => a.family === 'IPv4')?.address;
  if (!address) throw new SourceUrlError(`network interface ${iface} has no IPv4 address`);
  return address;
}

function testOptions(rest: string): TestSourceOptions {
  const query = new URLSearchParams(rest.split('?')[1] ?? '');
  const options = { ...TEST_SOURCE_DEFAULTS };
  const size = /^(\d{2,4})x(\d{2,4})$/.exec(query.get('size') ?? '');
  // Even sizes only: yuv420p halves the chroma planes.
  if (size) Object.assign(options, { width: Number(size[1]) & ~1, height: Number(size[2]) & ~1 });
  const number = (key: string, min: number, max: number) => {
    const value = Number(query.get(key));
    return query.has(key) && Number.isFinite(value) && value >= min && value <= max ? value : undefined;
  };
  options.fps = number('fps', 1, 60) ?? options.fps;
  options.videoBitrateKbps = number('bitrate', 50, 20_000) ?? options.videoBitrateKbps;
  options.toneHz = number('tone', 20, 20_000) ?? options.toneHz;
  return options;
}

/** Sources in the order they are tried: by priority (lower first, absent as 0), then as listed. */
export function orderSources(entries: readonly SourceEntry[]): SourceEntry[] {
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => (a.entry.priority ?? 0) - (b.entry.priority ?? 0) || a.index - b.index)
    .map(({ entry }) => entry);
}
