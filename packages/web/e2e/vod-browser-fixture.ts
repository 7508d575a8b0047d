import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { minimalConfig, test as base } from './fixtures.js';

export const VOD_PREFIX = 'vod';

/**
 * A short real MP4 (testsrc2 with a tone, H.264 with a keyframe every 2 s, AAC, moov first) made
 * once per worker with ffmpeg, copied into each test's library.
 */
let sampleMp4: Promise<string> | undefined;
export function makeSampleMp4(): Promise<string> {
  sampleMp4 ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-e2e-vod-sample-'));
    const out = join(dir, 'sample.mp4');
    const result = spawnSync(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'],
        ...['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25'],
        ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
        ...['-t', '6'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '50'],
        ...['-c:a', 'aac', '-b:a', '64k'],
        // moov first: a player reads the sample tables before the media.
        ...['-movflags', '+faststart'],
        out,
      ],
      { timeout: 60_000 },
    );
    if (result.status !== 0) throw new Error(`ffmpeg sample MP4: ${result.stderr.toString()}`);
    return out;
  })();
  return sampleMp4;
}

/**
 * The library each test starts with: two videos, a directory holding one more, and a text file.
 * List order (spec 002 §2): videos, directories, other files.
 */
export async function fillLibrary(dir: string): Promise<void> {
  const mp4 = await makeSampleMp4();
  await copyFile(mp4, join(dir, 'clip.mp4'));
  await copyFile(mp4, join(dir, 'zeta.mkv'));
  await mkdir(join(dir, 'archive'));
  await copyFile(mp4, join(dir, 'archive', 'old.mp4'));
  await writeFile(join(dir, 'notes.txt'), 'the library notes\n');
}

export const vodConfig = (dir: string) => `${minimalConfig}file ${VOD_PREFIX} {\n  path ${dir};\n}\n`;

/** A server with `file vod { path DIR; }` over a fresh library of its own. */
export const test = base.extend<{ vodDir: string }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  vodDir: async ({}, use) => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-e2e-vod-'));
    await fillLibrary(dir);
    await use(dir);
    await rm(dir, { recursive: true, force: true });
  },
  serverConfig: async ({ vodDir }, use) => use(vodConfig(vodDir)),
});
