import type { MediaInfo, Track } from '@sluice/api';
import type { ClientSessions } from '../delivery/client-sessions.js';
import { statsWrites, type ViewWrite } from '../engine/stats-writer.js';
import type { LiveView } from '../live/live-view.js';
import type { VodTrack } from './vod-source.js';

/** How often an opened file's stats are written, and a file without sessions is closed. */
const TICK_MS = 1000;

interface Opened {
  prefix: string;
  /** Where the file is on disk (its source is closed when the file is found gone). */
  absolute: string;
  openedAt: number;
  mediaInfo: MediaInfo | undefined;
}

/**
 * Files with players (spec 000: the media list's files, the header's file count): a file is
 * "opened" from its first session until its last one ends. Each is in the live view under
 * `files[PREFIX/PATH]` with {name, prefix, stats}, written each second like a stream's stats;
 * the count is the server stats' opened_files.
 */
export class OpenedFiles {
  private readonly opened = new Map<string, Opened>();
  private readonly ticker: NodeJS.Timeout;

  constructor(
    private readonly view: LiveView,
    private readonly sessions: ClientSessions,
  ) {
    this.ticker = setInterval(() => this.tick(Date.now()), TICK_MS);
    this.ticker.unref();
  }

  get count(): number {
    return this.opened.size;
  }

  /** A session of `name` was served: the file is opened now if it was not. */
  note(name: string, prefix: string, absolute: string, tracks?: readonly VodTrack[]): void {
    const known = this.opened.get(name);
    if (known) {
      known.absolute = absolute;
      if (!known.mediaInfo && tracks) known.mediaInfo = mediaInfoOf(tracks);
      return;
    }
    const now = Date.now();
    const entry: Opened = {
      prefix,
      absolute,
      openedAt: now,
      mediaInfo: tracks ? mediaInfoOf(tracks) : undefined,
    };
    this.opened.set(name, entry);
    this.view.set(['files', name], { name, prefix, stats: this.stats(name, entry, now) });
  }

  /** Whether the opened file `name` has no tracks known yet. */
  needsTracks(name: string): boolean {
    return this.opened.get(name)?.mediaInfo === undefined;
  }

  pathOf(name: string): string | undefined {
    return this.opened.get(name)?.absolute;
  }

  close(): void {
    clearInterval(this.ticker);
    for (const name of this.opened.keys()) this.view.set(['files', name], undefined);
    this.opened.clear();
  }

  private tick(now: number): void {
    const writes: ViewWrite[] = [];
    for (const [name, entry] of this.opened) {
      if (this.sessions.figures(name, now).count === 0) {
        this.opened.delete(name);
        writes.push([['files', name], undefined]);
        // A file's client totals are kept only while it is opened (many files are played once).
        this.sessions.dropStream(name);
        continue;
      }
      writes.push(...statsWrites(this.view.snapshot, ['files', name], this.stats(name, entry, now)));
    }
    if (writes.length > 0) this.view.setMany(writes);
  }

  private stats(name: string, entry: Opened, now: number): Record<string, unknown> {
    const figures = this.sessions.figures(name, now);
    const stats: Record<string, unknown> = {
      client_count: figures.count,
      bytes_out: figures.bytesOut,
      out_bandwidth: Math.round((figures.outBytesPerSecond * 8) / 1000),
      opened_at: entry.openedAt,
    };
    if (entry.mediaInfo) stats.media_info = entry.mediaInfo;
    return stats;
  }
}

/** Short codec names, as a live stream's tracks carry them (media/ts-demux.ts). */
function shortCodec(codec: string): string {
  const family = codec.split('.')[0]!.toLowerCase();
  if (family === 'avc1' || family === 'avc3') return 'h264';
  if (family === 'hvc1' || family === 'hev1') return 'hevc';
  if (family === 'mp4a') return /^mp4a\.(?:6b|69|40\.34)$/i.test(codec) ? 'mp3' : 'aac';
  if (family === 'ac-3') return 'ac3';
  if (family === 'ec-3') return 'eac3';
  return family;
}

/** A file's tracks as media_info (spec 000 §3 "Track"): ids v1, a1, a2 … like a stream's. */
export function mediaInfoOf(tracks: readonly VodTrack[]): MediaInfo {
  const counts = { video: 0, audio: 0 };
  const out: Track[] = tracks.map((t) => {
    const track: Track = {
      track_id: `${t.content[0]}${++counts[t.content]}`,
      content: t.content,
      codec: shortCodec(t.codec),
      bitrate: Math.round(t.bitrate / 1000),
    };
    if (t.lang) track.lang = t.lang;
    if (t.width) Object.assign(track, { width: t.width, height: t.height });
    if (t.fps) track.fps = t.fps;
    if (t.channels) track.channels = t.channels;
    if (t.sample_rate) track.sample_rate = t.sample_rate;
    return track;
  });
  const video = out.find((t) => t.content === 'video' && t.width);
  return video ? { width: video.width, height: video.height, tracks: out } : { tracks: out };
}
