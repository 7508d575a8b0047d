import { head } from './common-args.js';

/** Every output reads the stream's packet bus as MPEG-TS on stdin. */
const TS_FROM_STDIN = ['-f', 'mpegts', '-i', 'pipe:0'];

/** ffmpeg command lines of the outputs fed from a stream's packet bus on stdin: pure, tested by exact argv. */

export interface DashOutput {
  /** Where index.mpd and the segments are written. */
  manifestPath: string;
  videoCodec: string | undefined;
  audioCodec: string | undefined;
  /** ffmpeg cuts at the first keyframe at least this far (s) from the segment start: dashCutAfterS. */
  cutAfterS: number;
}

/**
 * Where ffmpeg's dash muxer must start looking for a cut, for segments of `targetMs` of media at
 * `fps`: half a frame short of the target, so a cut lands on the keyframe nearest the target.
 * ffmpeg cuts at the first keyframe at or past seg_duration counted from the previous segment's
 * end, and that end is its latest frame's PTS plus duration; with RTMP's millisecond timestamps
 * (30 fps: 33, 33, 34 ms frames) and B-frames it lands a fraction of a millisecond past the next
 * keyframe, which then falls short and the segment runs to the keyframe after: 4 s, not 2.
 */
export function dashCutAfterS(targetMs: number, fps: number | undefined): number {
  const frameMs = 1000 / (fps && fps > 0 ? fps : 25);
  return Math.round(Math.max(targetMs, 500) - frameMs / 2) / 1000;
}

/** MP4 sample entries DASH players know, by the codec names media_info uses. */
export const MP4_TAGS: Record<string, string> = {
  h264: 'avc1',
  hevc: 'hvc1',
  aac: 'mp4a',
  mp3: 'mp4a',
  ac3: 'ac-3',
  eac3: 'ec-3',
};

/** Whether a codec can go into DASH's fragmented MP4. */
export const dashCodec = (codec: string | undefined): boolean => codec !== undefined && codec in MP4_TAGS;

/** Packages MPEG-TS from stdin as live DASH (fragmented MP4 segments and a rolling MPD) in a folder. */
export function dashArgs(out: DashOutput): string[] {
  const sets: string[] = [];
  const maps: string[] = [];
  const tags: string[] = [];
  if (dashCodec(out.videoCodec)) {
    maps.push('-map', '0:v:0');
    // MPEG-TS stream types are no MP4 tags: ffmpeg refuses to copy them into MP4 unless told the right one.
    tags.push('-tag:v', MP4_TAGS[out.videoCodec!]!);
    sets.push(`id=${sets.length},streams=v`);
  }
  if (dashCodec(out.audioCodec)) {
    maps.push('-map', '0:a:0');
    tags.push('-tag:a', MP4_TAGS[out.audioCodec!]!);
    sets.push(`id=${sets.length},streams=a`);
  }
  return [
    ...head(),
    // ffmpeg reads 5 s of media by default before its first output, and a live pipe delivers that
    // in real time: the first MPD came 4–5 s after the request. The packager is fed a whole
    // segment at once, in which 1 s is enough to find both tracks' parameters.
    '-analyzeduration',
    '1000000',
    ...TS_FROM_STDIN,
    ...maps,
    '-c',
    'copy',
    ...tags,
    '-f',
    'dash',
    '-seg_duration',
    String(out.cutAfterS),
    // A rolling live window of 5 segments, and 3 more kept on disk for players a little behind.
    '-window_size',
    '5',
    '-extra_window_size',
    '3',
    '-use_template',
    '1',
    '-use_timeline',
    '1',
    '-adaptation_sets',
    sets.join(' '),
    // Files stay when ffmpeg ends (at a splice its period's segments are still played); the DASH
    // packager removes the folder itself.
    '-remove_at_exit',
    '0',
    out.manifestPath,
  ];
}

/** Repackages MPEG-TS from stdin as FLV on stdout, for RTMP players. */
export function flvOutArgs(): string[] {
  return [
    ...head(),
    ...TS_FROM_STDIN,
    '-map',
    '0:v:0?',
    '-map',
    '0:a:0?',
    '-c',
    'copy',
    '-f',
    'flv',
    // A pipe can't be rewound: no seeking back at the end to fill in duration and size.
    '-flvflags',
    'no_duration_filesize',
    'pipe:1',
  ];
}

/** The first keyframe of MPEG-TS from stdin as one JPEG, for stream previews (thumbnails). */
export function thumbnailArgs(maxWidth: number): string[] {
  return [
    ...head(),
    // Decode keyframes only: a preview every GOP costs one picture's decode, not a whole stream's.
    '-skip_frame',
    'nokey',
    ...TS_FROM_STDIN,
    '-map',
    '0:v:0',
    '-vf',
    `scale='min(${maxWidth},iw)':-2`,
    // The input is a segment's start: its keyframe is the one picture wanted.
    '-frames:v',
    '1',
    '-c:v',
    'mjpeg',
    '-q:v',
    '5',
    '-f',
    'image2pipe',
    'pipe:1',
  ];
}

/** The muxer a push URL takes, by scheme; undefined when pushes can't go there. */
export function pushFormat(url: string): 'flv' | 'mpegts' | undefined {
  const scheme = /^([a-z]+):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'rtmp' || scheme === 'rtmps') return 'flv';
  if (scheme === 'udp' || scheme === 'srt') return 'mpegts';
  return undefined;
}

/** Sends MPEG-TS from stdin to a push URL, without re-encoding. */
export function pushArgs(url: string): string[] {
  const format = pushFormat(url) ?? 'mpegts';
  // MPEG-TS over UDP goes 7 packets to a datagram, as receivers expect.
  const target =
    url.startsWith('udp://') && !url.includes('pkt_size')
      ? `${url}${url.includes('?') ? '&' : '?'}pkt_size=1316`
      : url;
  return [...head(), ...TS_FROM_STDIN, '-map', '0:v?', '-map', '0:a?', '-c', 'copy', '-f', format, target];
}
