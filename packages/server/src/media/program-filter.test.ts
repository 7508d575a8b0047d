import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { chunks, ffprobe, makeClip } from '../../test/ts-fixtures.js';
import { PacketBus } from './packet-bus.js';
import { parsePids } from './program-filter.js';
import { parsePat, SectionAssembler } from './psi.js';
import { pidOf } from './ts-packet.js';

/** Two programs in one transport stream, as a DVB multiplex carries them: 320x240, then 160x120. */
function twoPrograms(): Buffer {
  const result = spawnSync('ffmpeg', [
    ...[
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x240:rate=25:duration=1',
    ],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25:duration=1', '-map', '0:v', '-map', '1:v'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...['-program', 'program_num=1:st=0', '-program', 'program_num=2:st=1', '-f', 'mpegts', 'pipe:1'],
  ]);
  return result.stdout;
}

describe('ProgramFilter (the program option)', () => {
  it('keeps the chosen program alone, its PAT rewritten to list only it', () => {
    const bus = new PacketBus({ targetDurationMs: 2000, windowSize: 3 });
    bus.selectProgram(2);
    const out: Buffer[] = [];
    bus.subscribe((packets) => out.push(packets));
    for (const c of chunks(twoPrograms(), 1316)) bus.write(c, 0);
    expect(bus.demux.tracks(0)).toEqual([
      expect.objectContaining({ codec: 'h264', width: 160, height: 120 }),
    ]);
    const all = Buffer.concat(out);
    const pids = new Set<number>();
    for (let o = 0; o < all.length; o += 188) pids.add(pidOf(all, o));
    // The PAT, program 2's PMT (0x1001) and its video (0x101): nothing of program 1.
    expect([...pids].sort((a, b) => a - b)).toEqual([0, 0x101, 0x1001]);
    let o = 0;
    while (pidOf(all, o) !== 0) o += 188;
    const pat = parsePat(new SectionAssembler().push(all.subarray(o + 4, o + 188), true)!);
    expect(pat).toEqual([{ program: 2, pmtPid: 0x1001 }]);
    const probed = ffprobe(all, ['-show_streams']) as { streams: { width: number }[] };
    expect(probed.streams.map((s) => s.width)).toEqual([160]);
  });

  it('keeps only the listed PIDs of the first program, its PMT listing only them', () => {
    const bus = new PacketBus({ targetDurationMs: 2000, windowSize: 3 });
    // A clip with video (0x100) and audio (0x101): pids=256 keeps the video alone.
    bus.selectProgram(undefined, parsePids('256, 9000, x'));
    for (const c of chunks(makeClip({ seconds: 1, video: 'h264', audio: 'aac' }), 1316)) bus.write(c, 0);
    expect(bus.demux.tracks(0).map((t) => t.codec)).toEqual(['h264']);
  });

  it('reads the pids option as spec 001 §5 says: integers from 1 to 8191', () => {
    expect(parsePids('256, 0, 8192, 257,')).toEqual(new Set([256, 257]));
    expect(parsePids('')).toBeUndefined();
  });

  it('passes everything without a program chosen', () => {
    const bus = new PacketBus({ targetDurationMs: 2000, windowSize: 3 });
    for (const c of chunks(twoPrograms(), 1316)) bus.write(c, 0);
    expect(bus.demux.tracks(0)).toEqual([expect.objectContaining({ width: 320 })]);
  });
});
