import type { AdTarget } from './conform.js';

/** Per track: copied as it is, or re-encoded to the target (audio with no source index: silence). */
export interface TrackPlan {
  video?: { index: number; copy: boolean; target: NonNullable<AdTarget['video']> };
  audio?: { index: number | undefined; copy: boolean; target: NonNullable<AdTarget['audio']> };
}

/** Keyframe interval of a re-encoded ad (s): short ads, and a switch back to live soon after. */
const GOP_S = 2;

/**
 * The ffmpeg arguments that write `input` to `output` (MPEG-TS) by `plan`. Re-encoded video starts
 * on an IDR frame (every encoder's first frame is one) with a closed GOP; copied video keeps the
 * file's own frames, whose first is a keyframe in any file a player can start.
 */
export function conformArgs(input: string, output: string, plan: TrackPlan): string[] {
  const args = ['-hide_banner', '-nostdin', '-v', 'error', '-y', '-i', input];
  const silence = plan.audio && plan.audio.index === undefined;
  if (silence && plan.audio) {
    const t = plan.audio.target;
    const layout = t.channels === 1 ? 'mono' : t.channels === 2 ? 'stereo' : `${t.channels}c`;
    args.push('-f', 'lavfi', '-i', `anullsrc=r=${t.sampleRate}:cl=${layout}`);
  }
  if (plan.video) {
    const v = plan.video;
    args.push('-map', `0:${v.index}`);
    if (v.copy) args.push('-c:v', 'copy');
    else {
      const fps = v.target.fps;
      const filters = [
        `scale=${v.target.width}:${v.target.height}`,
        'setsar=1',
        ...(fps ? [`fps=${fpsText(fps)}`] : []),
      ];
      const gop = Math.max(1, Math.round((fps ?? 25) * GOP_S));
      args.push('-vf', filters.join(','), '-pix_fmt', 'yuv420p');
      if (v.target.codec === 'hevc')
        args.push('-c:v', 'libx265', '-preset', 'veryfast', '-x265-params', 'log-level=error');
      else args.push('-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high');
      args.push('-g', String(gop), '-keyint_min', String(gop), '-sc_threshold', '0', '-bf', '0');
    }
  }
  if (plan.audio) {
    const a = plan.audio;
    args.push('-map', silence ? '1:a:0' : `0:${a.index}`);
    if (a.copy) args.push('-c:a', 'copy');
    else
      args.push(
        '-c:a',
        'aac',
        '-ar',
        String(a.target.sampleRate),
        '-ac',
        String(a.target.channels),
        '-b:a',
        '128k',
      );
    // Silence runs forever: the ad's own video (or nothing) decides where the file ends.
    if (silence) args.push('-shortest');
  }
  args.push('-dn', '-sn', '-map_metadata', '-1', '-f', 'mpegts', output);
  return args;
}

/** A rate as ffmpeg takes it exactly: 29.97… as 30000/1001, not a rounded decimal. */
function fpsText(fps: number): string {
  const ntsc = Math.round(fps * 1.001);
  return Math.abs(fps - (ntsc * 1000) / 1001) < 1e-6 && Number.isInteger(fps) === false
    ? `${ntsc * 1000}/1001`
    : String(fps);
}
