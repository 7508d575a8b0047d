import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { MP4_TAGS } from '../engine/ffmpeg/output-args.js';
import { dashExportArgs, runOnce } from './archive-ffmpeg.js';

/** ffprobe of one segment takes a fraction of a second. */
const PROBE_TIMEOUT_MS = 10_000;
/** A static DASH copy of an hour of 2 s segments takes seconds; one stuck far longer is killed. */
const DASH_TIMEOUT_MS = 10 * 60_000;
/** DASH pieces of this length: what the live packager cuts, and the archive's segments. */
const PIECE_S = 2;

/** The pieces of archive-FROM-DURATION.mpd, beside it: archive-FROM-DURATION/init-0.m4s, chunk-0-00001.m4s. */
export const DASH_PIECE = /^(?:init-\d{1,2}|chunk-\d{1,2}-\d{5,9})\.m4s$/;

/** The codecs of the first track of each kind in a segment (ffprobe, beside ffmpeg). */
async function codecsOf(
  segmentPath: string,
  run: { ffmpegPath: string; env: NodeJS.ProcessEnv },
): Promise<{ video?: string; audio?: string }> {
  const ffprobe = run.ffmpegPath.replace(/ffmpeg(\.exe)?$/, 'ffprobe$1');
  const args = ['-hide_banner', '-loglevel', 'error', '-of', 'json', '-show_streams', segmentPath];
  const result = await runOnce(ffprobe, args, run.env, PROBE_TIMEOUT_MS);
  if (result.code !== 0) throw new Error(`ffprobe failed (${result.code}): ${result.stderr}`);
  const streams = (
    JSON.parse(result.stdout.toString()) as { streams?: { codec_type: string; codec_name: string }[] }
  ).streams;
  const first = (type: string) => streams?.find((s) => s.codec_type === type)?.codec_name;
  return { video: first('video'), audio: first('audio') };
}

/**
 * A static DASH copy of the segments in `listPath` into `outDir` (manifest.mpd, pieces under
 * `pieceDir`). Tracks of codecs DASH's fMP4 can't carry are left out; none at all is an error.
 */
export async function makeDash(
  listPath: string,
  firstSegmentPath: string,
  outDir: string,
  pieceDir: string,
  run: { ffmpegPath: string; env: NodeJS.ProcessEnv },
): Promise<void> {
  const codecs = await codecsOf(firstSegmentPath, run);
  const tags = {
    video: codecs.video ? MP4_TAGS[codecs.video] : undefined,
    audio: codecs.audio ? MP4_TAGS[codecs.audio] : undefined,
  };
  if (!tags.video && !tags.audio)
    throw new Error(
      `no track DASH can carry (video ${codecs.video ?? 'none'}, audio ${codecs.audio ?? 'none'})`,
    );
  await mkdir(join(outDir, pieceDir), { recursive: true });
  const args = dashExportArgs(listPath, outDir, pieceDir, tags, PIECE_S);
  const result = await runOnce(run.ffmpegPath, args, run.env, DASH_TIMEOUT_MS);
  if (result.code !== 0) throw new Error(`ffmpeg failed (${result.code}): ${result.stderr || 'no message'}`);
}
