import { type FileHandle, open } from 'node:fs/promises';
import { readMoov } from './mp4-box-reader.js';
import { type Mp4Movie, type Mp4Track, readMovie } from './mp4-movie.js';
import { planSegments, type SegmentPlan, segmentSamples } from './mp4-segments.js';
import { muxTsSegment, type TrackRange } from './mp4-ts-segment.js';
import { type OpenVodSource, VOD_SEGMENT_TARGET_S, type VodSource, type VodTrack } from './vod-source.js';

/**
 * An MP4 (ISO BMFF: .mp4, .m4v, .mov) played without a copy: the 'moov' is read once, each segment
 * is read from the file with positional reads when asked for. The file handle opens on the
 * first read and closes on close() once no read is under way, so a cached source may be closed
 * by one user and read again by the next.
 */
class Mp4Source implements VodSource {
  readonly tracks: readonly VodTrack[];
  readonly segments;
  readonly durationS: number;
  private handle: Promise<FileHandle> | undefined;
  private reads = 0;
  private closing = false;

  constructor(
    readonly path: string,
    readonly sizeBytes: number,
    readonly mtimeMs: number,
    private readonly movie: Mp4Movie,
    private readonly plan: SegmentPlan,
    openFile: FileHandle,
  ) {
    this.handle = Promise.resolve(openFile);
    this.segments = plan.segments;
    this.durationS = plan.durationS;
    this.tracks = movie.tracks.map(describeTrack);
  }

  async tsSegment(index: number, trackIds?: readonly number[]): Promise<Buffer> {
    if (!Number.isInteger(index) || index < 0 || index >= this.segments.length) {
      throw new Error(`${this.path}: no segment ${index} (the file has ${this.segments.length})`);
    }
    const { video, audio } = this.pick(trackIds);
    const range = (track: Mp4Track | undefined): TrackRange | undefined => {
      if (!track) return undefined;
      const [from, to] = segmentSamples(this.plan, track, index);
      return { track, from, to };
    };
    this.reads++;
    try {
      const file = await this.file();
      return await muxTsSegment(
        (position, length) => readExactly(file, position, length),
        range(video),
        range(audio),
      );
    } catch (error) {
      throw named(this.path, error);
    } finally {
      this.reads--;
      if (this.closing && this.reads === 0) this.release();
    }
  }

  close(): void {
    this.closing = true;
    if (this.reads === 0) this.release();
  }

  /** The first video and audio track, or exactly the tracks asked for (one of each kind at most). */
  private pick(trackIds?: readonly number[]): { video?: Mp4Track; audio?: Mp4Track } {
    const tracks = this.movie.tracks;
    if (!trackIds || trackIds.length === 0) {
      return {
        video: tracks.find((t) => t.entry.content === 'video'),
        audio: tracks.find((t) => t.entry.content === 'audio'),
      };
    }
    const picked: { video?: Mp4Track; audio?: Mp4Track } = {};
    for (const id of trackIds) {
      const track = tracks.find((t) => t.id === id);
      if (!track) throw new Error(`${this.path}: no playable track ${id}`);
      const kind = track.entry.content;
      if (picked[kind])
        throw new Error(
          `${this.path}: one ${kind} track per MPEG-TS segment (asked for ${trackIds.join(', ')})`,
        );
      picked[kind] = track;
    }
    return picked;
  }

  private file(): Promise<FileHandle> {
    this.closing = false;
    this.handle ??= reopen(this.path, this.sizeBytes, this.mtimeMs);
    const handle = this.handle;
    // A failed open is not kept: the next request tries again.
    handle.catch(() => (this.handle === handle ? (this.handle = undefined) : undefined));
    return handle;
  }

  private release(): void {
    const handle = this.handle;
    this.handle = undefined;
    this.closing = false;
    void handle?.then((h) => h.close()).catch(() => undefined);
  }
}

/** Opens the file again for reading, refusing it if it changed since its tables were read. */
async function reopen(path: string, sizeBytes: number, mtimeMs: number): Promise<FileHandle> {
  const file = await open(path, 'r');
  const stat = await file.stat().catch(async (error: unknown) => {
    await file.close();
    throw error;
  });
  if (stat.size !== sizeBytes || stat.mtimeMs !== mtimeMs) {
    await file.close();
    throw new Error('the file changed since it was opened');
  }
  return file;
}

async function readExactly(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new Error(`the file is cut short at byte ${position + bytesRead}`);
  return buffer;
}

function describeTrack(track: Mp4Track): VodTrack {
  const entry = track.entry;
  const durationS = track.table.durationUnits / track.timescale;
  const base = {
    id: track.id,
    codec: entry.codecString,
    ...(track.lang ? { lang: track.lang } : {}),
    bitrate: durationS > 0 ? Math.round((track.table.totalBytes * 8) / durationS) : 0,
  };
  if (entry.content === 'audio') {
    return { ...base, content: 'audio', channels: entry.channels, sample_rate: entry.sampleRate };
  }
  const fps = durationS > 0 ? Math.round((track.table.count / durationS) * 1000) / 1000 : undefined;
  return { ...base, content: 'video', width: track.width, height: track.height, ...(fps ? { fps } : {}) };
}

function named(path: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (message.startsWith(path)) return error as Error;
  return new Error(`${path}: ${message}`, { cause: error });
}

/** Reads an MP4's tables and plans its segments; the file stays open for the segments until close(). */
export const openMp4Source: OpenVodSource = async (absolutePath) => {
  let file: FileHandle | undefined;
  try {
    file = await open(absolutePath, 'r');
    const stat = await file.stat();
    const moov = await readMoov(file, stat.size);
    const movie = readMovie(moov, stat.size);
    if (movie.tracks.length === 0) {
      const why = movie.skipped.map((s) => `track ${s.id}: ${s.reason}`).join('; ');
      throw new Error(`no H.264, HEVC or AAC track to play${why ? ` (${why})` : ''}`);
    }
    const plan = planSegments(movie.tracks, VOD_SEGMENT_TARGET_S);
    return new Mp4Source(absolutePath, stat.size, stat.mtimeMs, movie, plan, file);
  } catch (error) {
    await file?.close().catch(() => undefined);
    throw named(absolutePath, error);
  }
};
