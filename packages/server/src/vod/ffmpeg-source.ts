import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { runOnce } from '../dvr/archive-ffmpeg.js';
import { TS_CLOCK } from '../media/ts-packet.js';
import { type Cut, cutsOf, parseVideoPackets, segmentsOf } from './ffprobe-keyframes.js';
import { type Probe, probeTracks } from './ffprobe-tracks.js';
import { trimToWindow } from './ts-window.js';
import {
  type OpenVodSource,
  VOD_PTS_OFFSET_S,
  type VodSegment,
  type VodSource,
  type VodTrack,
} from './vod-source.js';

/**
 * VodSource for the files that are not MP4 (MPEG-TS, MKV/WebM with H.264/HEVC and AAC, FLV): ffprobe
 * reads the tracks and the video keyframes once per file version; each segment is then one
 * `ffmpeg -ss … -c copy -f mpegts` run, trimmed to exactly its frames (ts-window.ts). Nothing is
 * re-encoded and no copy is written.
 */

export interface FfmpegRun {
  ffmpegPath: string;
  env: NodeJS.ProcessEnv;
}

const HEAD = ['-hide_banner', '-loglevel', 'error', '-nostdin'];
/** Reading every video packet of a 2-hour file takes ~10 s (docs/vod.md Formats); a stuck one is killed. */
const PROBE_TIMEOUT_MS = 120_000;
/** One segment with -c copy takes ~0.1 s. */
const SEGMENT_TIMEOUT_MS = 20_000;
/** ffmpeg reads this far past a segment's end: `-t` counts decode times, and audio interleaves late. */
const READ_PAST_S = 1;
/** Probed file versions kept (by path, mtime and size): a probe costs a read of the whole file. */
const PROBES_KEPT = 64;

interface Probed {
  tracks: VodTrack[];
  fileStartS: number;
  durationS: number;
  cuts: Cut[];
  segments: VodSegment[];
}

const probes = new Map<string, Promise<Probed>>();

/**
 * At most this many segment cuts at once (each an ffmpeg reading and writing as fast as the disk
 * allows); more wait their turn rather than starve each other and the live streams' ffmpegs.
 */
const CUTS_AT_ONCE = Math.max(2, availableParallelism() * 2);

/** Runs jobs `limit` at a time, the rest in the order they came. */
class Turns {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await job();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

const cutting = new Turns(CUTS_AT_ONCE);

/** An OpenVodSource running this ffmpeg (and the ffprobe beside it). */
export function ffmpegSourceOpener(run: FfmpegRun): OpenVodSource {
  return async (path) => {
    const info = await stat(path).catch((error: Error) => {
      throw new Error(`${path}: ${error.message}`, { cause: error });
    });
    if (!info.isFile()) throw new Error(`${path}: not a file`);
    const key = `${path}\0${info.mtimeMs}\0${info.size}`;
    let probed = probes.get(key);
    if (probed) probes.delete(key);
    else probed = probe(path, run);
    probes.set(key, probed);
    while (probes.size > PROBES_KEPT) probes.delete(probes.keys().next().value!);
    try {
      return new FfmpegSource(path, info.size, info.mtimeMs, await probed, run);
    } catch (error) {
      probes.delete(key);
      throw error;
    }
  };
}

/** The server's ffmpeg (SLUICE_FFMPEG, as main.ts passes it on), else the one on PATH. */
export const openFfmpegSource: OpenVodSource = ffmpegSourceOpener({
  ffmpegPath: process.env.SLUICE_FFMPEG ?? 'ffmpeg',
  env: process.env,
});

export const ffprobeOf = (ffmpegPath: string): string => ffmpegPath.replace(/ffmpeg(\.exe)?$/, 'ffprobe$1');

async function probe(path: string, run: FfmpegRun): Promise<Probed> {
  const ffprobe = ffprobeOf(run.ffmpegPath);
  const quiet = ['-hide_banner', '-v', 'error'];
  const [format, packets] = await Promise.all([
    runOnce(
      ffprobe,
      [...quiet, '-show_streams', '-show_format', '-show_data', '-of', 'json', path],
      run.env,
      PROBE_TIMEOUT_MS,
    ),
    runOnce(
      ffprobe,
      [
        ...quiet,
        '-select_streams',
        'v:0',
        '-show_entries',
        'packet=pts_time,dts_time,size,flags',
        '-of',
        'csv=p=0',
        path,
      ],
      run.env,
      PROBE_TIMEOUT_MS,
    ),
  ]);
  if (format.code !== 0)
    throw new Error(`${path}: not a media file ffprobe can read (${format.stderr || `exit ${format.code}`})`);
  const probe = JSON.parse(format.stdout.toString()) as Probe;
  const durationS = Number(probe.format?.duration);
  if (!(durationS > 0))
    throw new Error(`${path}: no duration (${probe.format?.format_name ?? 'unknown format'})`);
  const fileStartS = Number(probe.format?.start_time ?? 0) || 0;
  const video =
    packets.code === 0 ? parseVideoPackets(packets.stdout.toString()) : { keyframesS: [], bytes: 0 };
  const tracks = probeTracks(probe, (video.bytes * 8) / durationS);
  if (tracks.length === 0) {
    const codecs = (probe.streams ?? []).map((s) => s.codec_name ?? s.codec_type ?? '?').join(', ');
    throw new Error(
      `${path}: no track HLS and DASH can carry (H.264/HEVC, AAC/MP3/AC-3): it has ${codecs || 'none'}`,
    );
  }
  const keyframes = tracks.some((t) => t.content === 'video') ? video.keyframesS : [];
  if (tracks.some((t) => t.content === 'video') && keyframes.length === 0)
    throw new Error(`${path}: its video has no keyframe (${packets.stderr || 'damaged or cut short'})`);
  const cuts = cutsOf(keyframes, fileStartS, durationS);
  return { tracks, fileStartS, durationS, cuts, segments: segmentsOf(cuts, fileStartS, durationS) };
}

class FfmpegSource implements VodSource {
  readonly durationS: number;
  readonly tracks: readonly VodTrack[];
  readonly segments: readonly VodSegment[];

  constructor(
    readonly path: string,
    readonly sizeBytes: number,
    readonly mtimeMs: number,
    private readonly probed: Probed,
    private readonly run: FfmpegRun,
  ) {
    this.durationS = probed.durationS;
    this.tracks = probed.tracks;
    this.segments = probed.segments;
  }

  async tsSegment(index: number, trackIds?: readonly number[]): Promise<Buffer> {
    const { cuts, fileStartS } = this.probed;
    const cut = cuts[index];
    if (!Number.isInteger(index) || !cut)
      throw new Error(`${this.path}: no segment ${index} (it has ${cuts.length})`);
    const ids = trackIds ?? defaultTracks(this.tracks);
    const unknown = ids.filter((id) => !this.tracks.some((t) => t.id === id));
    if (unknown.length > 0 || ids.length === 0)
      throw new Error(`${this.path}: no track ${unknown.join(', ') || '(none asked)'} to play`);
    const next = cuts[index + 1];
    const input = [
      ...(index > 0 ? ['-ss', (cut.atS - fileStartS).toFixed(6)] : []),
      ...(next ? ['-t', (next.atS - cut.atS + READ_PAST_S).toFixed(6)] : []),
    ];
    const args = [
      ...HEAD,
      ...input,
      ...['-i', this.path],
      ...ids.flatMap((id) => ['-map', `0:${id}`]),
      // File timestamps kept (-copyts, no mux delay) and moved so the file's start is VOD_PTS_OFFSET_S.
      ...[
        '-c',
        'copy',
        '-copyts',
        '-muxdelay',
        '0',
        '-output_ts_offset',
        (VOD_PTS_OFFSET_S - fileStartS).toFixed(6),
      ],
      // One PES per audio frame, so the trim can cut between any two.
      ...['-pes_payload_size', '0', '-f', 'mpegts', 'pipe:1'],
    ];
    const result = await cutting.run(() =>
      runOnce(this.run.ffmpegPath, args, this.run.env, SEGMENT_TIMEOUT_MS),
    );
    if (result.code !== 0)
      throw new Error(
        `${this.path}: segment ${index} could not be read (${result.code === null ? `no answer in ${SEGMENT_TIMEOUT_MS / 1000} s` : result.stderr || `exit ${result.code}`})`,
      );
    const pts = (c: Cut | undefined) => c && Math.round((c.atS - fileStartS + VOD_PTS_OFFSET_S) * TS_CLOCK);
    try {
      return trimToWindow(result.stdout, { fromPts: index > 0 ? pts(cut) : undefined, toPts: pts(next) });
    } catch (error) {
      throw new Error(`${this.path}: segment ${index}: ${(error as Error).message}`, { cause: error });
    }
  }

  close(): void {
    // Nothing held open: each segment is its own ffmpeg run; the probe stays cached for the next opener.
  }
}

/** The first video and the first audio track. */
export function defaultTracks(tracks: readonly VodTrack[]): number[] {
  return (['video', 'audio'] as const).flatMap((content) => {
    const track = tracks.find((t) => t.content === content);
    return track ? [track.id] : [];
  });
}
