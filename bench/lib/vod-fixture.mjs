// Media for the VOD bench, made once and kept in os.tmpdir()/sluice-bench-vod: a 2-hour 1080p MP4
// (60 s of testsrc2 + sine encoded with libx264 ultrafast, concatenated 120 times with -c copy),
// hard links of it under other names (distinct files to the server, no extra disk), and a 2 GiB
// upload source. Also: dropping one file's pages from the page cache, and checking it worked.
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CACHE = join(tmpdir(), 'sluice-bench-vod');
/** The directory served by both Sluice (a `file vod` prefix) and nginx (its root). */
export const ROOT = join(CACHE, 'root');
export const BIG_NAME = 'big2h.mp4';
/** Another helper's copy of the same kind of file, reused (hard-linked) when it is there. */
const SHARED_BIG = '/tmp/s2/big2h.mp4';
const GIB = 1024 ** 3;

function run(cmd, args, opts = {}) {
  const result = spawnSync(cmd, args, { maxBuffer: 64 * 1024 * 1024, ...opts });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.toString();
}

/** Duration (s) and video size of a file as ffprobe reads them. */
export function probe(path) {
  const out = JSON.parse(
    run('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'format=duration:stream=width,height',
      '-of',
      'json',
      path,
    ]),
  );
  return {
    durationS: Number(out.format.duration),
    width: out.streams[0]?.width,
    height: out.streams[0]?.height,
  };
}

/** The 2-hour 1080p file in ROOT; made (a few minutes) only when neither copy is there. */
export function bigFile() {
  mkdirSync(ROOT, { recursive: true, mode: 0o755 });
  const path = join(ROOT, BIG_NAME);
  if (existsSync(path)) return { path, made: 'kept from an earlier run' };
  // A hard link keeps the other helper's file alive here even if they remove theirs.
  if (existsSync(SHARED_BIG) && probe(SHARED_BIG).durationS > 7100) {
    try {
      linkSync(SHARED_BIG, path);
      return { path, made: `hard link to ${SHARED_BIG}` };
    } catch {
      // Another file system: make our own.
    }
  }
  const t0 = performance.now();
  const minute = join(CACHE, 'minute.mp4');
  const enc = ['-hide_banner', '-loglevel', 'error', '-y'];
  enc.push('-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=25:duration=60');
  enc.push('-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=60');
  enc.push('-c:v', 'libx264', '-preset', 'ultrafast', '-g', '50', '-pix_fmt', 'yuv420p');
  enc.push('-c:a', 'aac', '-b:a', '96k', minute);
  run('ffmpeg', enc);
  const list = join(CACHE, 'concat.txt');
  writeFileSync(list, `file '${minute}'\n`.repeat(120));
  const partial = join(CACHE, 'big2h.partial.mp4');
  run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list],
    ...['-c', 'copy', '-f', 'mp4', partial],
  ]);
  renameSync(partial, path);
  rmSync(minute);
  return { path, made: `made in ${((performance.now() - t0) / 1000).toFixed(0)} s` };
}

/** `count` hard links of `path` named PREFIX-NN.mp4 in ROOT: distinct files to the server. */
export function links(path, prefix, count) {
  const names = [];
  for (let i = 0; i < count; i++) {
    const name = `${prefix}-${String(i).padStart(3, '0')}.mp4`;
    if (!existsSync(join(ROOT, name))) linkSync(path, join(ROOT, name));
    names.push(name);
  }
  return names;
}

/** A 2 GiB file (the big file's first 2 GiB) to upload and to cp, outside ROOT. */
export function uploadSource() {
  const path = join(CACHE, 'upload-2GiB.bin');
  if (existsSync(path) && statSync(path).size === 2 * GIB) return path;
  run('sh', ['-c', `head -c ${2 * GIB} '${join(ROOT, BIG_NAME)}' > '${path}.partial'`]);
  renameSync(`${path}.partial`, path);
  return path;
}

/** Bytes of `path` in the page cache (fincore). */
export function cachedBytes(path) {
  const out = run('fincore', ['--bytes', '--noheadings', '--output', 'RES', path]);
  return Number(out.trim());
}

/**
 * Drops `path`'s pages from the page cache (posix_fadvise DONTNEED through dd, as root or not,
 * without touching other files); returns the bytes still cached, 0 when it worked.
 */
export function dropFromCache(path) {
  spawnSync('dd', [`if=${path}`, 'iflag=nocache', 'count=0', 'status=none']);
  return cachedBytes(path);
}

/** Reads `path` whole so it is in the page cache. */
export function warmCache(path) {
  run('sh', ['-c', `cat '${path}' > /dev/null`]);
}
