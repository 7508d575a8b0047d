import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { parse as parseHls, setOptions as setHlsOptions } from 'hls-parser';
import type { MasterPlaylist, MediaPlaylist } from 'hls-parser/types.js';

/**
 * Test media for VOD playback, made with ffmpeg in the test's folder: H.264 (a keyframe every
 * 2 s) + AAC, and the same with two audio tracks (eng, fra).
 */
export function makeMovie(path: string, seconds: number, audioTracks = 1): void {
  const inputs = ['-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=25:duration=${seconds}`];
  const maps = ['-map', '0:v'];
  const langs = ['eng', 'fra'];
  for (let i = 0; i < audioTracks; i++) {
    inputs.push('-f', 'lavfi', '-i', `sine=frequency=${440 * (i + 1)}:sample_rate=48000:duration=${seconds}`);
    maps.push('-map', `${i + 1}:a`);
  }
  const meta = langs.slice(0, audioTracks).flatMap((lang, i) => [`-metadata:s:a:${i}`, `language=${lang}`]);
  const args = ['-hide_banner', '-loglevel', 'error', '-y', ...inputs, ...maps];
  args.push('-c:v', 'libx264', '-preset', 'ultrafast', '-g', '50', '-pix_fmt', 'yuv420p');
  args.push('-c:a', 'aac', '-b:a', '64k', ...meta, '-movflags', '+faststart', path);
  const result = spawnSync('ffmpeg', args, { timeout: 60_000 });
  if (result.status !== 0) throw new Error(`ffmpeg: ${result.stderr.toString()}`);
}

/** The same media in another container (-c copy): an MPEG-TS or MKV file, read through ffmpeg. */
export function remux(from: string, to: string): void {
  const result = spawnSync(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-y', '-i', from, '-map', '0', '-c', 'copy', to],
    {
      timeout: 60_000,
    },
  );
  if (result.status !== 0) throw new Error(`ffmpeg: ${result.stderr.toString()}`);
}

/** A GET with the path sent exactly as written (fetch would resolve '..' and re-encode). */
export function rawGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

export function parseMaster(text: string): MasterPlaylist {
  setHlsOptions({ strictMode: true, silent: true });
  const playlist = parseHls(text);
  if (!playlist.isMasterPlaylist) throw new Error(`not a master playlist:\n${text}`);
  return playlist as MasterPlaylist;
}

export function parseMedia(text: string): MediaPlaylist {
  setHlsOptions({ strictMode: true, silent: true });
  const playlist = parseHls(text);
  if (playlist.isMasterPlaylist) throw new Error(`not a media playlist:\n${text}`);
  return playlist as MediaPlaylist;
}

/** ffmpeg decoding every frame of TS bytes: its error output ('' when clean) and the duration. */
export function decodeTs(bytes: Buffer): { errors: string; durationS: number } {
  const decoded = spawnSync('ffmpeg', ['-hide_banner', '-v', 'error', '-i', 'pipe:0', '-f', 'null', '-'], {
    input: bytes,
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  // The video frames' first and last timestamps (a piped TS has no duration of its own).
  const probe = spawnSync(
    'ffprobe',
    [
      '-hide_banner',
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'packet=pts_time',
      '-of',
      'default=nw=1:nk=1',
      '-i',
      'pipe:0',
    ],
    { input: bytes, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
  );
  const times = probe.stdout
    .toString()
    .split('\n')
    .map(Number)
    .filter((t) => t > 0);
  const durationS = times.length > 1 ? Math.max(...times) - Math.min(...times) + 1 / 25 : 0;
  return { errors: decoded.stderr.toString().trim(), durationS };
}
