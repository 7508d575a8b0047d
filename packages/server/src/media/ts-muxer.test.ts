import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeTs, type TsAnalysis } from '../../test/ts-analyzer.js';
import { chunks, ffprobe } from '../../test/ts-fixtures.js';
import { tsreport } from '../../test/tsreport.js';
import { FlvToTs } from './flv-to-ts.js';
import { AUDIO_PID, PCR_DELAY_MS, TsMuxer, VIDEO_PID } from './ts-muxer.js';
import { PACKET_SIZE } from './ts-packet.js';

/** An FLV as a camera publishes it: 24 fps (frames 41–42 ms apart in RTMP's milliseconds), a keyframe every 2 s, AAC at 48 kHz. */
function cameraFlv(seconds: number): Buffer {
  const result = spawnSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=24:duration=${seconds}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '48', '-bf', '2'],
      ...['-c:a', 'aac', '-ac', '2', '-f', 'flv', 'pipe:1'],
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.status !== 0) throw new Error(`ffmpeg failed: ${result.stderr.toString()}`);
  return result.stdout;
}

function remux(flv: Buffer, serviceName?: string): Buffer {
  const out: Buffer[] = [];
  const converter = new FlvToTs((packets) => out.push(packets), { serviceName });
  for (const chunk of chunks(flv, 4000)) converter.push(chunk);
  return Buffer.concat(out);
}

describe('TsMuxer (RTMP publish to MPEG-TS), ETSI TR 101 290 priority 1 and 2', () => {
  let ts: Buffer;
  let report: TsAnalysis;

  beforeAll(() => {
    ts = remux(cameraFlv(8), 'live/cam');
    report = analyzeTs(ts);
  });

  it('sends every access unit before its decode time: the PCR runs PCR_DELAY_MS behind the DTS', () => {
    expect(report.pcrPid).toBe(VIDEO_PID);
    const video = report.timing.get(VIDEO_PID)!;
    const audio = report.timing.get(AUDIO_PID)!;
    expect(video.units).toBeGreaterThanOrEqual(8 * 24);
    expect(audio.units).toBeGreaterThan(8 * 46);
    expect([video.late, audio.late]).toEqual([0, 0]);
    expect(audio.minLeadMs).toBeGreaterThan(PCR_DELAY_MS / 2);
    // tsreport agrees: no "DTS < PCR" on either stream.
    const checked = tsreport(ts);
    expect(checked.streams.map((s) => [s.pid, s.dtsBeforePcr])).toEqual([
      [VIDEO_PID, 0],
      [AUDIO_PID, 0],
    ]);
  });

  it('keeps PTS and DTS as published (only the PCR is offset)', () => {
    const frames = ffprobe(ts, ['-show_packets', '-select_streams', 'v', '-read_intervals', '%+#3'])
      .packets as {
      pts: number;
      dts: number;
    }[];
    // ffmpeg's FLV starts video at 0 ms and, with two B-frames, the first PTS 2 frames later (rounded to ms).
    expect(frames[0]).toMatchObject({ dts: 0 });
    expect(frames[0]!.pts).toBe(Math.round(2000 / 24) * 90);
  });

  it('sends a PCR at least every 40 ms though video frames are 41–42 ms apart', () => {
    expect(report.maxPcrGapMs).toBeLessThanOrEqual(40);
    expect(tsreport(ts).maxPcrGapTicks).toBeLessThanOrEqual(40 * 90);
  });

  it('repeats PAT and PMT at least every 0.5 s by time, not only before keyframes (2 s apart here)', () => {
    expect(report.maxGapMs.pat).toBeLessThanOrEqual(150);
    expect(report.maxGapMs.pmt).toBeLessThanOrEqual(150);
  });

  it('sends an SDT naming the service after the stream, from provider Sluice, at least every 2 s', () => {
    expect(report.service).toEqual({ provider: 'Sluice', name: 'live/cam' });
    expect(report.maxGapMs.sdt).toBeLessThanOrEqual(600);
    const programs = ffprobe(ts, ['-show_programs']).programs as { tags?: Record<string, string> }[];
    expect(programs[0]?.tags).toMatchObject({ service_name: 'live/cam', service_provider: 'Sluice' });
  });

  it('counts continuity on every PID without an error (PCR-only packets keep the counter)', () => {
    expect(report.continuityErrors).toEqual([]);
  });
});

describe('TsMuxer without video', () => {
  it('puts the PCR on the audio PID and the tables every 100 ms, a radio service in the SDT', () => {
    const out: Buffer[] = [];
    const muxer = new TsMuxer((p) => out.push(p), { video: false, audio: true, serviceName: 'radio' });
    // AAC frames of 1024 samples at 44.1 kHz: 23.2 ms, as RTMP milliseconds.
    for (let i = 0; i < 200; i++)
      muxer.writeAudio(adtsFrame(200 + (i % 7)), Math.round((i * 1024000) / 44100) * 90);
    const ts = Buffer.concat(out);
    expect(ts.length % PACKET_SIZE).toBe(0);
    const report = analyzeTs(ts);
    expect(report.pcrPid).toBe(AUDIO_PID);
    expect(report.timing.get(AUDIO_PID)).toMatchObject({ late: 0, units: 200 });
    expect(report.maxPcrGapMs).toBeLessThanOrEqual(40);
    expect(report.maxGapMs.pat).toBeLessThanOrEqual(150);
    expect(report.service).toEqual({ provider: 'Sluice', name: 'radio' });
    expect(report.continuityErrors).toEqual([]);
  });

  it('starts a new PCR time base, flagged, when the publisher resets its timestamps', () => {
    const out: Buffer[] = [];
    const muxer = new TsMuxer((p) => out.push(p), { video: false, audio: true });
    for (let i = 0; i < 50; i++) muxer.writeAudio(adtsFrame(100), 900_000 + i * 2090);
    const before = Buffer.concat(out).length;
    for (let i = 0; i < 50; i++) muxer.writeAudio(adtsFrame(100), i * 2090);
    const after = Buffer.concat(out).subarray(before);
    const report = analyzeTs(after);
    expect(report.timing.get(AUDIO_PID)).toMatchObject({ late: 0 });
    // The first PCR after the reset carries the discontinuity_indicator (ISO 13818-1 §2.4.3.5).
    const first = firstPcrPacket(after);
    expect(first[5]! & 0x80).toBe(0x80);
  });
});

/** An ADTS frame (AAC LC, 44.1 kHz, stereo) of `length` bytes with silent-looking filler. */
function adtsFrame(length: number): Buffer {
  const frame = Buffer.alloc(length, 0x21);
  frame.set([
    0xff,
    0xf1,
    0x50,
    0x80 | (length >> 11),
    (length >> 3) & 0xff,
    ((length & 7) << 5) | 0x1f,
    0xfc,
  ]);
  return frame;
}

function firstPcrPacket(ts: Buffer): Buffer {
  for (let o = 0; o < ts.length; o += PACKET_SIZE) {
    if ((ts[o + 3]! & 0x20) !== 0 && ts[o + 4]! >= 7 && (ts[o + 5]! & 0x10) !== 0)
      return ts.subarray(o, o + PACKET_SIZE);
  }
  throw new Error('no PCR');
}

describe('the SDT service name', () => {
  it('is written as UTF-8 (selector 0x15) when not plain ASCII, cut on a whole character', () => {
    const out: Buffer[] = [];
    const name = `Chaîne ${'é'.repeat(80)}`;
    new TsMuxer((p) => out.push(p), { video: false, audio: true, serviceName: name }).writeAudio(
      adtsFrame(100),
      0,
    );
    const service = analyzeTs(Buffer.concat(out)).service!;
    expect(service.name.startsWith('Chaîne éé')).toBe(true);
    expect(Buffer.byteLength(service.name, 'utf8')).toBeLessThanOrEqual(127);
    expect(service.name.endsWith('é')).toBe(true);
  });
});
