import { applied, notApplied, type Review } from './review.js';

/** Spec 001 §3 transcoder, relative to the stream (`transcoder.…`). */
const args = (title: string) => applied('src/engine/ffmpeg/transcoder-args.test.ts', title);
const DECODER =
  'crops, deinterlaces and threads the decoder; profile, level, B-frames, refs, GOP, fps, aspect, extra';
const NO_ALOGO = 'only a track’s logo is burnt in; alogo is kept (the console shows no alogo control)';
const LOGO = 'overlays an uploaded logo at its corner expressions, escaped for the graph';

export const TRANSCODER: Record<string, Review> = {
  'global.hw': args('nvenc: CUVID decodes, deinterlaces (bob) and crops on GPU N'),
  'global.deviceid': args('qsv: decodes on the render node of device N'),
  'global.external': notApplied(
    'the transcoder always runs inside this server (the console shows no control for it)',
  ),
  'global.seamless': notApplied(
    'a transcoder restart starts a new segment; seamless restarts are not done',
    'transcoder/GlobalSelectors.tsx',
  ),
  'decoder.deinterlace': args(DECODER),
  'decoder.drop_second': args('nvenc: CUVID decodes, deinterlaces (bob) and crops on GPU N'),
  'decoder.threads': args(DECODER),
  'decoder.crop.left': args(DECODER),
  'decoder.crop.top': args(DECODER),
  'decoder.crop.width': args(DECODER),
  'decoder.crop.height': args(DECODER),
  'audio.bitrate': args('with no video tracks transcodes only the audio'),
  'audio.codec': args('encodes MPEG audio with mp2'),
  'audio.sample_rate': args('encodes MPEG audio with mp2; sample rate 0 keeps the source rate'),
  'audio.channels': args('with no video tracks transcodes only the audio'),
  'video.*.bitrate': applied(
    'transcoder-renditions.test.ts',
    'encodes each variant at its configured bitrate',
  ),
  'video.*.codec': args('encodes HEVC with libx265'),
  'video.*.preset': args('decodes once and encodes 720p and 360p H.264 renditions'),
  'video.*.profile': args(DECODER),
  'video.*.level': args(DECODER),
  'video.*.size.width': applied(
    'transcoder-renditions.test.ts',
    'lists a variant per video track in the master playlist, each playing at its size',
  ),
  'video.*.size.height': applied(
    'transcoder-renditions.test.ts',
    'lists a variant per video track in the master playlist, each playing at its size',
  ),
  'video.*.logo.path': applied('transcoder-logo.test.ts', 'burns the logo into the rendition at its corner'),
  'video.*.logo.x': args(LOGO),
  'video.*.logo.y': args(LOGO),
  'video.*.logo.r': args(LOGO),
  'video.*.alogo.path': notApplied(NO_ALOGO),
  'video.*.alogo.x': notApplied(NO_ALOGO),
  'video.*.alogo.y': notApplied(NO_ALOGO),
  'video.*.alogo.r': notApplied(NO_ALOGO),
  'video.*.fps': args(DECODER),
  'video.*.bframes': args(DECODER),
  'video.*.refs': args(DECODER),
  'video.*.g': args(DECODER),
  'video.*.gop': args(DECODER),
  'video.*.disable_cgop': args(DECODER),
  'video.*.aspect.x': args(DECODER),
  'video.*.aspect.y': args(DECODER),
  'video.*.extra': args(DECODER),
};
