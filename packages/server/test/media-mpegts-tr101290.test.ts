import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getBytes, getText, rtmpPublisher, segmentUris, streamStats, udpSender } from './media-helpers.js';
import { analyzeTs } from './ts-analyzer.js';
import { tsreport } from './tsreport.js';

/** Reads a continuous-TS URL from its first byte until its PCRs span `seconds` of stream. */
async function readMpegts(url: string, seconds: number): Promise<Buffer> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const reader = response.body!.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let checkedAt = 0;
  const deadline = Date.now() + seconds * 1000 + 30_000;
  try {
    while (Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      parts.push(value);
      size += value.length;
      if (size - checkedAt < 100_000) continue;
      checkedAt = size;
      const data = Buffer.concat(parts);
      if (analyzeTs(data).pcrSpanMs >= seconds * 1000) return data;
    }
    throw new Error(`${url}: less than ${seconds} s of stream in ${size} bytes`);
  } finally {
    controller.abort();
  }
}

const continuity = (ts: Buffer) =>
  analyzeTs(ts).continuityErrors.map((e) => `PID ${e.pid} packet ${e.index}: ${e.expected}→${e.got}`);

/**
 * MPEG-TS as a set-top box reads it from /mpegts, and as HLS players get it in segments, checked
 * with ETSI TR 101 290 priority 1 and 2 in mind by Debian's tsreport and our own analyzer: an RTMP
 * publish (muxed by Sluice) and a UDP source (ffmpeg's TS passed through) in one server.
 */
describe('MPEG-TS output against TR 101 290 (tsreport and own analyzer)', () => {
  let server: RunningServer;
  const sources: { stop: () => Promise<void> }[] = [];

  beforeAll(async () => {
    const [rtmpPort, udpPort] = [await freePort(), await freePort()];
    server = await startServer({
      config:
        `${minimalConfig}rtmp ${rtmpPort};\nlive live {\n  source_timeout 10;\n}\n` +
        `stream udp/one {\n  url udp://127.0.0.1:${udpPort};\n  static true;\n  segment_count 4;\n}\n`,
    });
    sources.push(rtmpPublisher(`rtmp://127.0.0.1:${rtmpPort}/live/cam`), udpSender(udpPort));
    for (const [name, location] of [
      ['live/cam', 'live'],
      ['udp/one', undefined],
    ] as const) {
      await waitFor(async () => (await streamStats(server, name, location)).alive, 30_000);
    }
  });
  afterAll(async () => {
    await Promise.all(sources.map((s) => s.stop()));
    await server?.cleanup();
  });

  it('RTMP publish, /mpegts: no DTS before the PCR, PCRs ≤ 40 ms apart, PAT/PMT ≤ 0.5 s, an SDT naming the stream, no CC error', async () => {
    const ts = await readMpegts(`${server.url}/live/cam/mpegts`, 8);
    const own = analyzeTs(ts);
    const report = tsreport(ts);
    // tsreport: every access unit arrives before its decode time, and counters hold on the media PIDs.
    expect(report.streams.map((s) => [s.pid, s.dtsBeforePcr, s.continuityErrors])).toEqual([
      [0x100, 0, 0],
      [0x101, 0, 0],
    ]);
    expect(report.badPcrGaps).toBe(0);
    // Our analyzer reads the same PCRs and the same late units as tsreport…
    expect(own.pcrCount).toBe(report.pcrCount);
    expect(Math.round(own.maxPcrGapMs * 90)).toBe(report.maxPcrGapTicks);
    for (const s of report.streams) expect(own.timing.get(s.pid)?.late).toBe(s.dtsBeforePcr);
    // …and checks what tsreport does not: the tables' repetition and counters on every PID.
    expect(own.maxPcrGapMs).toBeLessThanOrEqual(40);
    expect(own.maxGapMs.pat).toBeLessThanOrEqual(500);
    expect(own.maxGapMs.pmt).toBeLessThanOrEqual(500);
    expect(own.maxGapMs.sdt).toBeLessThanOrEqual(2000);
    expect(continuity(ts)).toEqual([]);
    expect(own.service).toEqual({ provider: 'Sluice', name: 'live/cam' });
    expect(ffprobePrograms(ts)[0]?.tags).toMatchObject({
      service_name: 'live/cam',
      service_provider: 'Sluice',
    });
  });

  it('RTMP publish, HLS: each segment and consecutive segments together count without a CC error, no DTS before the PCR', async () => {
    const segments = await hlsSegments(`${server.url}/live/cam`);
    for (const segment of segments) {
      expect(continuity(segment)).toEqual([]);
      expect(tsreport(segment).streams.map((s) => s.dtsBeforePcr)).toEqual([0, 0]);
    }
    expect(continuity(Buffer.concat(segments))).toEqual([]);
  });

  it('UDP source: /mpegts from its first byte, each segment and consecutive segments count without a CC error', async () => {
    const ts = await readMpegts(`${server.url}/udp/one/mpegts`, 4);
    expect(continuity(ts)).toEqual([]);
    expect(tsreport(ts).streams.map((s) => s.continuityErrors)).toEqual([0, 0]);
    const segments = await hlsSegments(`${server.url}/udp/one`);
    for (const segment of segments) expect(continuity(segment)).toEqual([]);
    expect(continuity(Buffer.concat(segments))).toEqual([]);
  });
});

/** The segments of a media playlist once it lists at least three, in order. */
async function hlsSegments(base: string): Promise<Buffer[]> {
  const playlist = await waitFor(async () => {
    const { status, text } = await getText(`${base}/video.m3u8`);
    return status === 200 && segmentUris(text).length >= 3 ? text : undefined;
  }, 30_000);
  const segments: Buffer[] = [];
  for (const uri of segmentUris(playlist)) segments.push(await getBytes(`${base}/${uri}`));
  return segments;
}

/** The programs ffprobe reads, with the SDT's service name and provider as tags. */
function ffprobePrograms(ts: Buffer): { tags?: Record<string, string> }[] {
  const result = spawnSync('ffprobe', ['-v', 'error', '-of', 'json', '-show_programs', '-i', 'pipe:0'], {
    input: ts,
    timeout: 20_000,
    maxBuffer: 32 * 1024 * 1024,
  });
  return (
    (JSON.parse(result.stdout.toString()) as { programs?: { tags?: Record<string, string> }[] }).programs ??
    []
  );
}
