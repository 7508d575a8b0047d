import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SegmentWindow } from '../segment-window.js';
import { LiveFmp4 } from './fmp4-live.js';

const dir = mkdtempSync(join(tmpdir(), 'fmp4-live-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Three 1-second TS segments of the given encoder, cut as the live segmenter cuts them. */
function segments(name: string, video: string[]): Buffer[] {
  const args = [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25'],
    ...['-f', 'lavfi', '-i', 'sine', '-c:a', 'aac', '-t', '3', ...video, '-g', '25', '-pix_fmt', 'yuv420p'],
    ...['-f', 'segment', '-segment_time', '1', '-segment_format', 'mpegts', join(dir, `${name}%d.ts`)],
  ];
  const result = spawnSync('ffmpeg', args, { timeout: 60_000 });
  if (result.status !== 0) throw new Error(`ffmpeg: ${result.stderr.toString()}`);
  return [0, 1, 2].map((i) => readFileSync(join(dir, `${name}${i}.ts`)));
}

/** The tables and the second half of a segment from its 13th video frame: no keyframe, no SPS/PPS. */
function secondHalf(ts: Buffer): Buffer {
  let units = 0;
  for (let o = 0; o < ts.length; o += 188) {
    const pid = ((ts[o + 1]! & 0x1f) << 8) | ts[o + 2]!;
    if (pid === 0x100 && ts[o + 1]! & 0x40 && units++ === 12)
      return Buffer.concat([ts.subarray(0, 3 * 188), ts.subarray(o)]);
  }
  throw new Error('segment too short');
}

const mapLines = (text: string) => text.split('\n').filter((l) => l.startsWith('#EXT-X-MAP'));

describe('live fMP4 packager', () => {
  let h264: Buffer[];
  let hevc: Buffer[];
  beforeAll(() => {
    h264 = segments('avc', ['-c:v', 'libx264', '-preset', 'veryfast', '-bf', '2']);
    hevc = segments('hevc', ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error']);
  }, 60_000);

  it('follows the TS playlist: same sequences, one remux per segment for any number of players', () => {
    const window = new SegmentWindow(3, 1, 1);
    for (const data of h264) window.add(1000, false, data);
    const live = new LiveFmp4(window);
    const text = live.playlist()!;
    const sequences = (t: string, ext: string) =>
      [...t.matchAll(new RegExp(`-(\\d+)\\.${ext}`, 'g'))].map((m) => Number(m[1]));
    expect(sequences(text, 'm4s')).toEqual(sequences(window.playlist()!, 'ts'));
    expect(mapLines(text)).toHaveLength(1);
    const first = window.segments[0]!.sequence;
    // The same bytes (the same object): the second player did not cost a second remux.
    expect(live.fragment(first)).toBe(live.fragment(first));
    expect(live.current?.codecs[0]).toMatch(/^avc1\./);
  });

  it('packages an oldest segment cut inside a GOP with the parameter sets of the segments after it', () => {
    const window = new SegmentWindow(3, 0, 1);
    window.add(500, false, secondHalf(h264[0]!));
    window.add(1000, false, h264[1]!);
    window.add(1000, false, h264[2]!);
    const live = new LiveFmp4(window);
    const text = live.playlist()!;
    expect(text.match(/fmp4-\d+\.m4s/g)).toHaveLength(3);
    expect(mapLines(text)).toHaveLength(1);
  });

  it('names a new init after a discontinuity that changes the codec, and drops what left the window', () => {
    const window = new SegmentWindow(2, 0, 1);
    const live = new LiveFmp4(window);
    window.add(1000, false, h264[0]!);
    window.add(1000, false, h264[1]!);
    const before = live.playlist()!;
    const oldest = window.segments[0]!.sequence;
    window.add(1000, true, hevc[0]!);
    const after = live.playlist()!;
    const maps = mapLines(after);
    expect(maps).toHaveLength(2);
    expect(after.indexOf(maps[1]!)).toBeGreaterThan(after.indexOf('#EXT-X-DISCONTINUITY'));
    const hevcInit = /fmp4-init-(\w+)\.mp4/.exec(maps[1]!)![1]!;
    expect(live.init(hevcInit)!.includes(Buffer.from('hvcC'))).toBe(true);
    expect(live.current?.codecs[0]).toMatch(/^hvc1\./);
    // The first H.264 segment has left the window: its fragment is gone, so is the init once unused.
    window.add(1000, false, hevc[1]!);
    live.playlist();
    expect(live.fragment(oldest)).toBeUndefined();
    const h264Init = /fmp4-init-(\w+)\.mp4/.exec(mapLines(before)[0]!)![1]!;
    window.add(1000, false, hevc[2]!);
    live.playlist();
    expect(live.init(h264Init)).toBeUndefined();
  });
});
