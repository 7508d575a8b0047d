import { spawn } from 'node:child_process';

/**
 * The short ffmpeg runs of archive playback (an MP4 export, a frame, a static DASH copy): argument
 * lists built as data by pure functions, and one runner that ends a run stuck past its time.
 */

const HEAD = ['-hide_banner', '-loglevel', 'error', '-nostdin'];

/** A concat demuxer list: one `file` line per segment, quoted as the demuxer reads it. */
export function concatList(paths: readonly string[]): string {
  return paths.map((p) => `file '${p.replaceAll("'", "'\\''")}'\n`).join('');
}

/**
 * Segments → one MP4, without re-encoding. The concat demuxer (not the concat protocol) because it
 * starts each file's timestamps where the previous file ended: segments after a gap or a restart
 * begin a new time base, which one MPEG-TS read as a whole would turn into a jump. `+faststart`
 * puts the index first, so a player can seek before the whole download came.
 */
export function mp4ExportArgs(listPath: string, outPath: string): string[] {
  return [
    ...HEAD,
    ...['-f', 'concat', '-safe', '0', '-i', listPath],
    // Every track: video, each audio; the data tracks MP4 can't hold are left out.
    ...['-map', '0:v?', '-map', '0:a?', '-c', 'copy'],
    ...['-movflags', '+faststart', '-f', 'mp4', '-y', outPath],
  ];
}

/**
 * The picture at `offsetS` into one segment, as a JPEG. `-ss` before `-i` seeks to the keyframe
 * before it (the segment's first) and decodes up to the moment; `maxWidth` scales a preview down.
 */
export function frameArgs(segmentPath: string, offsetS: number, maxWidth?: number): string[] {
  return [
    ...HEAD,
    ...['-ss', offsetS.toFixed(3), '-i', segmentPath],
    ...['-map', '0:v:0', '-frames:v', '1'],
    ...(maxWidth ? ['-vf', `scale='min(${maxWidth},iw)':-2`] : []),
    ...['-c:v', 'mjpeg', '-q:v', '3', '-f', 'image2pipe', 'pipe:1'],
  ];
}

/**
 * Segments → a static DASH presentation without re-encoding: `outDir`/manifest.mpd, its pieces in
 * `outDir`/`pieceDir`/ (named so in the MPD: a path beside the MPD's URL). MPEG-TS stream types are
 * no MP4 sample entries, so each track is told its tag (as the live DASH packager does).
 */
export function dashExportArgs(
  listPath: string,
  outDir: string,
  pieceDir: string,
  tags: { video?: string; audio?: string },
  segmentS: number,
): string[] {
  const maps: string[] = [];
  const sets: string[] = [];
  if (tags.video) {
    maps.push('-map', '0:v:0', '-tag:v', tags.video);
    sets.push(`id=${sets.length},streams=v`);
  }
  if (tags.audio) {
    maps.push('-map', '0:a:0', '-tag:a', tags.audio);
    sets.push(`id=${sets.length},streams=a`);
  }
  return [
    ...HEAD,
    ...['-f', 'concat', '-safe', '0', '-i', listPath],
    ...['-c', 'copy', ...maps],
    ...['-f', 'dash', '-seg_duration', String(segmentS), '-use_template', '1', '-use_timeline', '1'],
    ...['-adaptation_sets', sets.join(' ')],
    ...['-init_seg_name', `${pieceDir}/init-$RepresentationID$.m4s`],
    ...['-media_seg_name', `${pieceDir}/chunk-$RepresentationID$-$Number%05d$.m4s`],
    `${outDir}/manifest.mpd`,
  ];
}

export interface RunResult {
  code: number | null;
  stdout: Buffer;
  /** The last lines ffmpeg wrote to stderr: the reason a run failed. */
  stderr: string;
}

/** Runs ffmpeg once; killed (SIGKILL) past `timeoutMs`. */
export function runOnce(
  binary: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(binary, [...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout: Buffer.alloc(0), stderr: error.message });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out), stderr: stderr.trim() });
    });
  });
}
