/** The argv pieces every ffmpeg child shares. */

/** Flags every child gets first. */
export function head(): string[] {
  return [
    '-hide_banner',
    // Without -nostdin ffmpeg reads its stdin for interactive keys and can stop on a stray 'q'.
    '-nostdin',
    // level+ prefixes each line with [error]/[warning]…, which the stream log shows as is;
    // info keeps the one-time input and mapping description, and -nostats drops the progress
    // line ffmpeg would otherwise rewrite every half second.
    '-loglevel',
    'level+info',
    '-nostats',
  ];
}

/** MPEG-TS on stdout, which the engine reads into the stream's packet bus. */
export function mpegtsToStdout(): string[] {
  return ['-f', 'mpegts', 'pipe:1'];
}

/**
 * A live H.264 encode for HLS (the test source, a webcam): veryfast + zerolatency keep it cheap on
 * a small machine (no B-frames, no lookahead); a keyframe every `gopFrames` exactly and none at
 * scene cuts, so segments are steady. `frameRate` forces a constant rate on input whose frames come
 * when they come (a webcam), which players and x264's level want.
 */
export function liveH264Args(videoBitrateKbps: number, gopFrames: number, frameRate?: number): string[] {
  const gop = String(gopFrames);
  return [
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-tune',
    'zerolatency',
    // RGB or odd inputs would make x264 pick 4:4:4, which browsers can't decode.
    '-pix_fmt',
    'yuv420p',
    ...(frameRate === undefined ? [] : ['-r', String(frameRate)]),
    '-b:v',
    `${videoBitrateKbps}k`,
    '-maxrate',
    `${videoBitrateKbps}k`,
    '-bufsize',
    `${videoBitrateKbps * 2}k`,
    '-g',
    gop,
    '-keyint_min',
    gop,
    '-sc_threshold',
    '0',
  ];
}
