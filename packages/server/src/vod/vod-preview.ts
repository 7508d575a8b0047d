import { COMMON_HEADERS } from '../delivery/respond.js';
import { frameArgs, runOnce } from '../dvr/archive-ffmpeg.js';
import { PREVIEW_MAX_WIDTH } from '../dvr/archive-frame.js';
import { VodAnswerError, type VodFormat, type VodRequest } from './vod-format.js';
import type { FfmpegRun } from './ffmpeg-source.js';

/** Without ?t=, the picture this far into the file: past the black or the logo most files open with. */
const DEFAULT_AT = 0.1;
/** Moments this close together share a picture (and a cache entry). */
const STEP_S = 0.1;
/** One picture: a seek to the keyframe before it and a decode up to it, well under a second. */
const FRAME_TIMEOUT_MS = 20_000;
/** A moment this close to the end is taken this far before it. */
const END_MARGIN_S = 0.5;
/** Pictures kept (~30 KB each at 640 wide). */
const PICTURES_KEPT = 128;

/**
 * /{prefix}/{path}/preview.jpg?t=SECONDS: the file's picture at that moment (default 10 % in), at
 * most 640 wide like the archive's previews, decoded by ffmpeg from the keyframe before it. A
 * preview is no playback: the handler checks play authorization, and it counts to no session.
 */
export class VodPreview implements VodFormat {
  private readonly pictures = new Map<string, Promise<Buffer>>();

  constructor(private readonly run: FfmpegRun) {}

  matches = (resource: string): boolean => resource === 'preview.jpg';

  session = (): undefined => undefined;

  serve = async (r: VodRequest): Promise<void> => {
    const t = new URL(r.req.url ?? '/', 'http://x').searchParams.get('t');
    const borrowed = await r.borrow();
    let atS: number;
    let durationS: number;
    try {
      const { source } = borrowed;
      durationS = source.durationS;
      if (!source.tracks.some((track) => track.content === 'video'))
        throw new VodAnswerError(404, `file ${r.name} has no video to take a picture of`);
      atS = t === null || t === '' ? source.durationS * DEFAULT_AT : Number(t);
      if (!Number.isFinite(atS) || atS < 0 || atS > source.durationS)
        throw new VodAnswerError(
          400,
          `t=${t} is not a moment of ${r.name} (seconds from 0 to ${source.durationS.toFixed(3)})`,
        );
    } finally {
      borrowed.release();
    }
    // The last half second may hold no frame to show (ffmpeg answers nothing there): the one before.
    const jpeg = await this.picture(r.file.absolute, r.file.mtimeMs, r.file.sizeBytes, atS, durationS);
    r.res.writeHead(200, {
      ...COMMON_HEADERS,
      'content-type': 'image/jpeg',
      'content-length': jpeg.length,
      'cache-control': 'max-age=60',
    });
    r.res.end(r.req.method === 'HEAD' ? undefined : jpeg);
  };

  private async picture(
    path: string,
    mtimeMs: number,
    sizeBytes: number,
    atS: number,
    durationS: number,
  ): Promise<Buffer> {
    const at = Math.round(Math.max(0, Math.min(atS, durationS - END_MARGIN_S)) / STEP_S) * STEP_S;
    const key = `${path}\0${mtimeMs}\0${sizeBytes}\0${at.toFixed(1)}`;
    let picture = this.pictures.get(key);
    if (picture) this.pictures.delete(key);
    else picture = this.decode(path, at);
    this.pictures.set(key, picture);
    while (this.pictures.size > PICTURES_KEPT) this.pictures.delete(this.pictures.keys().next().value!);
    try {
      return await picture;
    } catch (error) {
      this.pictures.delete(key);
      throw error;
    }
  }

  private async decode(path: string, atS: number): Promise<Buffer> {
    const result = await runOnce(
      this.run.ffmpegPath,
      frameArgs(path, atS, PREVIEW_MAX_WIDTH),
      this.run.env,
      FRAME_TIMEOUT_MS,
    );
    const jpeg = result.stdout;
    // A JPEG starts FF D8: anything else (a damaged file, a moment past the last frame) is no picture.
    if (result.code === 0 && jpeg.length > 2 && jpeg[0] === 0xff && jpeg[1] === 0xd8) return jpeg;
    const why =
      result.code === null
        ? `no picture in ${FRAME_TIMEOUT_MS / 1000} s`
        : result.stderr || 'no picture decoded';
    throw new VodAnswerError(500, `${path}: no picture at ${atS.toFixed(1)} s (${why})`);
  }
}
