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
