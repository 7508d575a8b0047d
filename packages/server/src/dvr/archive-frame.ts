import type { ArchiveIndex } from './archive-index.js';
import { frameArgs, runOnce } from './archive-ffmpeg.js';
import { positionAt } from './archive-window.js';

/** `{from}-preview.jpg` is at most this wide (height follows the picture's aspect), like live previews. */
export const PREVIEW_MAX_WIDTH = 640;
/** A JPEG of one picture takes well under a second; one stuck longer is killed. */
const FRAME_TIMEOUT_MS = 20_000;

export type FrameResult = { jpeg: Buffer } | { status: number; error: string };

/**
 * The picture of the archive at `atMs` (/{name}/{from}.jpg, {from}-preview.jpg): the segment that
 * holds the moment is decoded from its keyframe up to it. A moment in no segment (before the
 * archive, in a gap, after its end) is a 404 with the reason.
 */
export async function archiveFrame(
  index: ArchiveIndex,
  atMs: number,
  preview: boolean,
  run: { ffmpegPath: string; env: NodeJS.ProcessEnv },
): Promise<FrameResult> {
  const i = positionAt(index, atMs);
  const segment = i < index.count ? index.at(i) : undefined;
  if (!segment || segment.startMs > atMs) {
    return { status: 404, error: `no archive at ${atMs / 1000} (${new Date(atMs).toISOString()})` };
  }
  const offsetS = (atMs - segment.startMs) / 1000;
  const args = frameArgs(index.pathOf(segment), offsetS, preview ? PREVIEW_MAX_WIDTH : undefined);
  const result = await runOnce(run.ffmpegPath, args, run.env, FRAME_TIMEOUT_MS);
  // A JPEG starts FF D8: anything else (no video track, a broken file) is no picture.
  if (result.code !== 0 || result.stdout.length < 2 || result.stdout[0] !== 0xff || result.stdout[1] !== 0xd8)
    return { status: 500, error: `no picture decoded at ${atMs / 1000}: ${result.stderr || 'no video'}` };
  return { jpeg: result.stdout };
}
