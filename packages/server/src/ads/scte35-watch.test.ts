import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PacketBus } from '../media/packet-bus.js';
import { PACKET_SIZE, pidOf } from '../media/ts-packet.js';
import { sectionPackets } from '../media/ts-tables.js';
import type { Scte35Cue } from './scte35-cue.js';
import { Scte35Slots } from './scte35-slots.js';
import { watchScte35 } from './scte35-watch.js';
import { SCTE_PID, scte35Section, spliceInsert, tablesWithScte35 } from './testing/scte35-sections.js';

const run = promisify(execFile);
let dir: string;
let video: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sluice-scte35-watch-'));
  const file = join(dir, 'live.ts');
  // 2 s of H.264 in MPEG-TS as ffmpeg writes it: PMT on 0x1000, video on 0x100.
  await run('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=160x90:rate=25:duration=2',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-g',
    '25',
    '-f',
    'mpegts',
    file,
  ]);
  const bytes = await readFile(file);
  const kept: Buffer[] = [];
  // ffmpeg's own tables go; ours list an SCTE 35 PID beside the video, as a broadcaster's do.
  for (let o = 0; o + PACKET_SIZE <= bytes.length; o += PACKET_SIZE) {
    const pid = pidOf(bytes, o);
    if (pid !== 0 && pid !== 0x1000) kept.push(bytes.subarray(o, o + PACKET_SIZE));
  }
  video = Buffer.concat(kept);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("watchScte35 on a live stream's packet bus", () => {
  it('hears each cue of an MPEG-TS source once, and reports a broken section without stopping', () => {
    const bus = new PacketBus({ targetDurationMs: 1000, windowSize: 3 });
    const cues: Scte35Cue[] = [];
    const bad: string[] = [];
    const stop = watchScte35(bus, { cue: (cue) => cues.push(cue), bad: (reason) => bad.push(reason) });
    const out = scte35Section(
      0x05,
      spliceInsert({ eventId: 5, outOfNetwork: true, pts: 90_000, durationTicks: 15 * 90_000 }),
    );
    const back = scte35Section(0x05, spliceInsert({ eventId: 5, outOfNetwork: false, immediate: true }));
    const flipped = Buffer.from(out);
    flipped[6]! ^= 0xff;
    // CRC right, but the command's fields end a byte before splice_command_length says.
    const lying = scte35Section(0x05, [...spliceInsert({ eventId: 8, outOfNetwork: true, pts: 1 }), 0]);
    const half = Math.floor(video.length / PACKET_SIZE / 2) * PACKET_SIZE;
    const now = Date.now();
    // Tables (repeated, as every source repeats them: the bus passes packets from the first keyframe
    // on), the first second, the cue-out three times (as encoders repeat it), a broken one, the rest, the cue-in.
    bus.write(Buffer.concat([tablesWithScte35(0), video.subarray(0, half)]), now);
    bus.write(
      Buffer.concat([tablesWithScte35(1), ...[0, 1, 2].map((cc) => sectionPackets(SCTE_PID, out, cc))]),
      now,
    );
    bus.write(Buffer.concat([sectionPackets(SCTE_PID, flipped, 3), sectionPackets(SCTE_PID, lying, 4)]), now);
    bus.write(
      Buffer.concat([tablesWithScte35(2), video.subarray(half), sectionPackets(SCTE_PID, back, 5)]),
      now,
    );
    expect(cues).toEqual([
      { kind: 'out', eventId: 5, pts90k: 90_000, durationS: 15 },
      { kind: 'in', eventId: 5 },
    ]);
    stop();
    bus.write(
      Buffer.concat([
        tablesWithScte35(3),
        sectionPackets(
          SCTE_PID,
          scte35Section(0x05, spliceInsert({ eventId: 6, outOfNetwork: true, pts: 1 })),
          6,
        ),
      ]),
      now,
    );
    expect(cues).toHaveLength(2);
    // A section whose CRC fails is dropped as it is joined (psi.ts); one that lies is reported.
    expect(bad).toEqual([expect.stringMatching(/splice_command_length/)]);
  });

  it('places a cue-out on the wall clock from its splice time, and its cue-in ends the slot (Scte35Slots)', () => {
    const bus = new PacketBus({ targetDurationMs: 1000, windowSize: 3 });
    let now = 1_000_000;
    const lines: string[] = [];
    const slots = new Scte35Slots(
      (line) => lines.push(line),
      () => now,
    );
    slots.follow(bus);
    bus.write(Buffer.concat([tablesWithScte35(0), video]), now);
    const lastDts = bus.demux.lastDts!;
    expect(lastDts).toBeGreaterThan(0);
    // Splice 2 s after the newest frame, a 30 s break.
    const out = scte35Section(
      0x05,
      spliceInsert({
        eventId: 11,
        outOfNetwork: true,
        pts: lastDts + 2 * 90_000,
        durationTicks: 30 * 90_000,
      }),
    );
    bus.write(Buffer.concat([tablesWithScte35(1), sectionPackets(SCTE_PID, out, 0)]), now);
    expect(slots.current(now)).toEqual({ eventId: 11, startMs: now + 2000, endMs: now + 32_000 });
    // The network comes back early: an immediate cue-in 10 s later ends the slot there.
    now += 10_000;
    const back = scte35Section(0x05, spliceInsert({ eventId: 11, outOfNetwork: false, immediate: true }));
    bus.write(Buffer.concat([tablesWithScte35(2), sectionPackets(SCTE_PID, back, 1)]), now);
    expect(slots.current(now - 1)?.endMs).toBe(now);
    expect(slots.current(now)).toBeUndefined();
    expect(lines).toEqual([
      expect.stringMatching(/cue-out \(event 11\): an ad break of 30 s/),
      expect.stringMatching(/cue-in/),
    ]);
    slots.close();
  });
});
