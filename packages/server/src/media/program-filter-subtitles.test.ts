import { describe, expect, it } from 'vitest';
import { DVBSUB_PID, subtitleTs, TELETEXT_PID } from '../../test/subtitle-ts-fixture.js';
import { ProgramFilter } from './program-filter.js';
import { parsePmt, SectionAssembler } from './psi.js';
import { pidOf } from './ts-packet.js';

/** The PIDs of the packets and the PMT's streams of what the filter lets through. */
function through(filter: ProgramFilter, ts: Buffer): { pids: number[]; pmtStreams: number[] } {
  const out = filter.filter(ts);
  const pids = new Set<number>();
  let pmtStreams: number[] = [];
  for (let o = 0; o < out.length; o += 188) {
    const pid = pidOf(out, o);
    pids.add(pid);
    if (pid === 0x1000) {
      const pmt = parsePmt(new SectionAssembler().push(out.subarray(o + 4, o + 188), true)!);
      pmtStreams = pmt!.streams.map((s) => s.pid);
    }
  }
  return { pids: [...pids].sort((a, b) => a - b), pmtStreams };
}

describe('ProgramFilter (the allow_subtitles option)', () => {
  const ts = subtitleTs(3);

  it('drops DVB subtitle and teletext tracks with allow_subtitles=false, the PMT listing neither', () => {
    const { pids, pmtStreams } = through(new ProgramFilter(undefined, undefined, false), ts);
    // The PCR PID is the subtitle one in this fixture, so it stays; teletext goes entirely.
    expect(pids).not.toContain(TELETEXT_PID);
    expect(pmtStreams).toEqual([]);
  });

  it('carries both by default, the PMT as the source sent it', () => {
    const { pids, pmtStreams } = through(new ProgramFilter(undefined, undefined, true), ts);
    expect(pids).toEqual([0, DVBSUB_PID, TELETEXT_PID, 0x1000]);
    expect(pmtStreams).toEqual([DVBSUB_PID, TELETEXT_PID]);
  });
});
