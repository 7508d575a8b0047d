import { spawn, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { getBytes, getText, stopChild, testEncoderArgs } from './media-helpers.js';

/** Keyframe interval of the hls.js splice test's feeds: half a second keeps a cycle short. */
export const FEED_GOP_MS = 480;

/**
 * A feed of the test pattern over UDP as MPEG-TS, a keyframe every `gopFrames` (at 25 fps; 12 is
 * FEED_GOP_MS); `args` go before the output.
 */
export function spliceFeed(
  port: number,
  toneHz: number,
  args: string[] = [],
  gopFrames = 12,
): { stop: () => Promise<void> } {
  const child = spawn(
    'ffmpeg',
    [
      ...testEncoderArgs(toneHz),
      ...['-g', String(gopFrames), ...args],
      ...['-f', 'mpegts', `udp://127.0.0.1:${port}?pkt_size=1316`],
    ],
    { stdio: 'ignore' },
  );
  return { stop: () => stopChild(child) };
}

/** A UDP forwarder standing for the network between a feed and the server: `forwarding = false` is an outage. */
export function udpRelay(
  fromPort: number,
  toPort: number,
): { forwarding: boolean; stop: () => Promise<void> } {
  const socket = createSocket('udp4');
  const relay = {
    forwarding: true,
    stop: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (message) => {
    if (relay.forwarding) socket.send(message, toPort, '127.0.0.1');
  });
  socket.bind(fromPort, '127.0.0.1');
  return relay;
}

/** ffprobe's video packets of a segment, decodable or not (a decoder would skip some silently). */
function videoPackets(segment: Buffer): { flags: string }[] {
  const result = spawnSync(
    'ffprobe',
    [
      ...['-hide_banner', '-loglevel', 'error', '-of', 'json'],
      ...['-show_packets', '-select_streams', 'v', '-show_entries', 'packet=flags', '-i', 'pipe:0'],
    ],
    { input: segment, timeout: 20_000, maxBuffer: 32 * 1024 * 1024 },
  );
  return (JSON.parse(result.stdout.toString()) as { packets?: { flags: string }[] }).packets ?? [];
}

export const videoPacketCount = (segment: Buffer): number => videoPackets(segment).length;

/** Whether the segment's first video packet is a keyframe (flags K_). */
export const startsWithKeyframe = (segment: Buffer): boolean =>
  videoPackets(segment)[0]?.flags.startsWith('K') ?? false;

interface Listed {
  url: string;
  sequence: number;
  durationMs: number;
  discontinuity: boolean;
  /** EXT-X-GAP: the outage, kept in the timeline; no media to fetch. */
  gap: boolean;
}

export interface SpliceSeen {
  /** The old source's last segment and the new source's first (marked). */
  before: Listed & { data: Buffer };
  first: Listed & { data: Buffer };
}

/**
 * Polls a live media playlist and checks every version against RFC 8216 as a strict parser would:
 * TARGETDURATION never changes and bounds every EXTINF rounded, no EXTINF of 0, MEDIA-SEQUENCE never
 * goes back, a URI keeps its duration, the window holds 3 target durations once it rolls. Keeps the
 * two segments around each discontinuity (fetched at once, before they leave the window).
 */
export class PlaylistWatch {
  readonly violations: string[] = [];
  readonly discontinuities: SpliceSeen[] = [];
  /** The newest segment's sequence number. */
  lastSequence = 0;
  private mediaSequence = 0;
  private target: number | undefined;
  private firstSequence: number | undefined;
  private readonly durations = new Map<string, number>();
  private readonly fetched = new Set<string>();
  private running = true;
  private readonly loop: Promise<void>;
  private polls = 0;

  constructor(private readonly url: string) {
    this.loop = this.poll();
  }

  /** Resolves after the next fetch. */
  async next(): Promise<this> {
    const at = this.polls;
    while (this.polls === at) await new Promise((resolve) => setTimeout(resolve, 50));
    return this;
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private async poll(): Promise<void> {
    while (this.running) {
      const { status, text } = await getText(this.url);
      if (status === 200) await this.check(text);
      this.polls++;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  private async check(text: string): Promise<void> {
    const target = Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(text)?.[1]);
    const sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1]);
    this.target ??= target;
    this.firstSequence ??= sequence;
    if (target !== this.target) this.violations.push(`TARGETDURATION ${this.target} became ${target}`);
    if (sequence < this.mediaSequence)
      this.violations.push(`MEDIA-SEQUENCE ${this.mediaSequence} → ${sequence}`);
    this.mediaSequence = sequence;
    const listed: Listed[] = [];
    let discontinuity = false;
    let gap = false;
    let durationMs = 0;
    for (const line of text.split('\n')) {
      if (line === '#EXT-X-DISCONTINUITY') discontinuity = true;
      else if (line === '#EXT-X-GAP') gap = true;
      else if (line.startsWith('#EXTINF:')) durationMs = Math.round(Number.parseFloat(line.slice(8)) * 1000);
      else if (line && !line.startsWith('#')) {
        const url = new URL(line, this.url).href;
        listed.push({ url, sequence: sequence + listed.length, durationMs, discontinuity, gap });
        discontinuity = false;
        gap = false;
      }
    }
    this.lastSequence = sequence + listed.length - 1;
    let totalMs = 0;
    for (const segment of listed) {
      totalMs += segment.durationMs;
      if (segment.durationMs <= 0) this.violations.push(`${segment.url}: EXTINF ${segment.durationMs} ms`);
      if (Math.round(segment.durationMs / 1000) > target)
        this.violations.push(`${segment.url}: EXTINF ${segment.durationMs} ms over TARGETDURATION ${target}`);
      const known = this.durations.get(segment.url);
      if (known !== undefined && known !== segment.durationMs)
        this.violations.push(`${segment.url} was ${known} ms, now ${segment.durationMs} ms`);
      this.durations.set(segment.url, segment.durationMs);
    }
    if (sequence > this.firstSequence && totalMs < 3 * target * 1000)
      this.violations.push(`window of ${totalMs} ms under 3 × TARGETDURATION`);
    for (let i = 1; i < listed.length; i++) {
      const first = listed[i]!;
      if (!first.discontinuity || this.fetched.has(first.url)) continue;
      this.fetched.add(first.url);
      // The old source's last segment: before the outage's gap segments, if any.
      const before = listed.slice(0, i).findLast((s) => !s.gap);
      if (!before) continue;
      const [a, b] = await Promise.all([getBytes(before.url), getBytes(first.url)]);
      this.discontinuities.push({ before: { ...before, data: a }, first: { ...first, data: b } });
    }
  }
}
