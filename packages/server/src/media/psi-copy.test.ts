import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeTs } from '../../test/ts-analyzer.js';
import { chunks, makeClip, makeFlv } from '../../test/ts-fixtures.js';
import { FlvToTs } from './flv-to-ts.js';
import { PacketBus } from './packet-bus.js';
import { PsiCopy } from './psi-copy.js';
import { continuityOf, PACKET_SIZE, payloadOffset, startsUnit } from './ts-packet.js';
import { patSection, pmtSection, sectionPackets } from './ts-tables.js';

/**
 * Feeds a stream in chunks of `chunkBytes` (a UDP datagram: 1316; an HTTP source: up to 64 KB), and
 * gives the segments and what a continuous-TS client joining after `joinAt` bytes receives.
 */
function play(ts: Buffer, joinAt: number, chunkBytes = 1316) {
  const bus = new PacketBus({ targetDurationMs: 2000, windowSize: 10 });
  const client: Buffer[] = [];
  let fed = 0;
  for (const chunk of chunks(ts, chunkBytes)) {
    bus.write(chunk, 1000);
    fed += chunk.length;
    if (client.length === 0 && bus.demux.psiPackets.length > 0 && fed >= joinAt) {
      client.push(...bus.segmenter.liveStart());
      bus.subscribe((packets) => client.push(packets));
    }
  }
  return { segments: bus.segmenter.segments.map((s) => s.data), client: Buffer.concat(client) };
}

const errorsOf = (ts: Buffer) =>
  analyzeTs(ts).continuityErrors.map((e) => `PID ${e.pid}: ${e.expected}→${e.got}`);

describe('the program tables put in front of segments and new clients (PsiCopy)', () => {
  const sources: Record<string, Buffer> = {};

  beforeAll(() => {
    // ffmpeg's MPEG-TS (a UDP or HTTP source): PAT and PMT every 100 ms, an SDT every 500 ms.
    sources.ffmpeg = makeClip({ seconds: 9, video: 'h264', audio: 'aac' });
    // Sluice's own muxer (an RTMP publish).
    const out: Buffer[] = [];
    new FlvToTs((p) => out.push(p), { serviceName: 'cam' }).push(makeFlv(9));
    sources.rtmp = Buffer.concat(out);
  });

  for (const source of ['ffmpeg', 'rtmp']) {
    it(`leaves no continuity error in any segment, nor across segments (${source} source)`, () => {
      const { segments } = play(sources[source]!, 0);
      expect(segments.length).toBeGreaterThanOrEqual(3);
      for (const segment of segments) expect(errorsOf(segment)).toEqual([]);
      expect(errorsOf(Buffer.concat(segments))).toEqual([]);
    });

    it(`numbers the copy for where the segment starts, also when a chunk holds later tables (${source} source, 64 KB chunks)`, () => {
      const { segments } = play(sources[source]!, 0, 65536);
      expect(segments.length).toBeGreaterThanOrEqual(3);
      for (const segment of segments) expect(errorsOf(segment)).toEqual([]);
      expect(errorsOf(Buffer.concat(segments))).toEqual([]);
    });

    it(`gives a client joining mid-segment a stream without continuity errors from its first byte (${source} source)`, () => {
      const { client } = play(sources[source]!, Math.round(sources[source]!.length * 0.45));
      expect(client.length).toBeGreaterThan(100 * PACKET_SIZE);
      expect(errorsOf(client)).toEqual([]);
    });

    it(`opens every segment with PAT, PMT and the SDT (${source} source)`, () => {
      const { segments } = play(sources[source]!, 0);
      const expected =
        source === 'rtmp' ? { provider: 'Sluice', name: 'cam' } : { provider: 'FFmpeg', name: 'Service01' };
      for (const segment of segments) {
        expect([0, 1, 2].map((i) => segment.readUInt16BE(i * PACKET_SIZE + 1) & 0x1fff)).toEqual([
          0, 0x1000, 0x11,
        ]);
        expect(analyzeTs(segment).service).toEqual(expected);
      }
    });
  }

  it('renumbers a PMT of two packets to end on the counter the source last used', () => {
    const streams = Array.from({ length: 40 }, (_, i) => ({ pid: 0x100 + i, streamType: 0x06 }));
    const pmt = pmtSection(1, 0x100, streams);
    const pat = patSection(1, 0x1000);
    const copy = new PsiCopy();
    const source = [sectionPackets(0, pat, 7), sectionPackets(0x1000, pmt, 11)];
    for (const packets of source) {
      for (let o = 0; o < packets.length; o += PACKET_SIZE) {
        const pid = packets.readUInt16BE(o + 1) & 0x1fff;
        copy.notePacket(
          packets,
          o,
          pid,
          packets.subarray(payloadOffset(packets, o), o + PACKET_SIZE),
          startsUnit(packets, o),
        );
      }
    }
    copy.setPat(pat);
    copy.setPmt(0x1000, pmt);
    const tables = copy.packets(0x1000, 0);
    expect(tables.length / PACKET_SIZE).toBe(3);
    // Counters: PAT 7 (as the source's last), PMT 11, 12 (ending on the source's last, 12).
    expect([0, 1, 2].map((i) => continuityOf(tables, i * PACKET_SIZE))).toEqual([7, 11, 12]);
    // The source's next tables follow the copy, which may come twice (a client's start, then its segment's).
    const next = [sectionPackets(0, pat, 8), sectionPackets(0x1000, pmt, 13)];
    expect(errorsOf(Buffer.concat([...source, tables, tables, ...next]))).toEqual([]);
  });
});
