import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getBytes, getText, probeStreams, segmentUris, stopChild } from './media-helpers.js';
import { withSubtitles } from './subtitle-relay.js';

interface Probed {
  codec_name: string;
  codec_type: string;
  width?: number;
  id: string;
  nb_read_packets?: string;
  tags?: { language?: string };
}

/**
 * A DVB multiplex over UDP: program 1 is a 160x120 picture with a tone (PIDs 256, 257), program 2
 * a 192x144 picture (258) with DVB subtitles in French (0x200) and teletext subtitles in German
 * (0x201). ffmpeg sends the pictures (it can't pace copied subtitles, nor encode text into them);
 * the test adds the subtitles to program 2, once a second by its clock, and hands each datagram
 * to the three streams' ports.
 */
describe('a multi-program MPEG-TS source with subtitles', () => {
  let server: RunningServer;
  let encoder: ChildProcess;
  const relay = createSocket('udp4');

  beforeAll(async () => {
    const [p2, pids, nosubs] = [await freePort(), await freePort(), await freePort()];
    server = await startServer({
      config:
        minimalConfig +
        `stream p2 {\n  url udp://127.0.0.1:${p2} program=2;\n  static true;\n}\n` +
        `stream pids {\n  url udp://127.0.0.1:${pids} pids=256;\n  static true;\n}\n` +
        `stream nosubs {\n  url udp://127.0.0.1:${nosubs} program=2 allow_subtitles=false;\n  static true;\n}\n`,
    });
    await new Promise<void>((resolve) => relay.bind(0, '127.0.0.1', resolve));
    const inject = withSubtitles();
    relay.on('message', (datagram) => {
      const multiplex = inject(datagram);
      for (const port of [p2, pids, nosubs]) relay.send(multiplex, port, '127.0.0.1');
    });
    const picture = (size: string) => ['-re', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25`];
    encoder = spawn(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
        ...picture('160x120'),
        ...['-re', '-f', 'lavfi', '-i', 'sine=frequency=440'],
        ...picture('192x144'),
        ...['-map', '0:v', '-map', '1:a', '-map', '2:v'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
        ...['-g', '25', '-c:a', 'aac'],
        ...['-program', 'program_num=1:st=0:st=1', '-program', 'program_num=2:st=2'],
        ...['-f', 'mpegts', `udp://127.0.0.1:${relay.address().port}?pkt_size=1316`],
      ],
      { stdio: 'ignore' },
    );
  });
  afterAll(async () => {
    if (encoder) await stopChild(encoder);
    relay.close();
    await server?.cleanup();
  });

  /** The newest HLS segment of `stream`. */
  async function newestSegment(stream: string): Promise<Buffer> {
    const playlist = await waitFor(async () => {
      const r = await getText(`${server.url}/${stream}/video.m3u8`);
      return r.status === 200 && segmentUris(r.text).length > 0 ? r.text : undefined;
    }, 30_000);
    return getBytes(`${server.url}/${stream}/${segmentUris(playlist).at(-1)}`);
  }

  /** ffprobe's streams of a live HLS segment of `stream`, with packets counted. */
  async function segmentStreams(stream: string): Promise<Probed[]> {
    return probeStreams(await newestSegment(stream), ['-count_packets']) as unknown as Probed[];
  }

  /** ffprobe's streams of 3 s of the continuous MPEG-TS of `stream`. */
  async function mpegtsStreams(stream: string): Promise<Probed[]> {
    await segmentStreams(stream);
    const controller = new AbortController();
    const response = await fetch(`${server.url}/${stream}/mpegts`, { signal: controller.signal });
    const reader = response.body!.getReader();
    const parts: Uint8Array[] = [];
    const until = Date.now() + 3000;
    while (Date.now() < until) {
      const { value, done } = await reader.read();
      if (done) break;
      parts.push(value);
    }
    controller.abort();
    return probeStreams(Buffer.concat(parts), ['-count_packets']) as unknown as Probed[];
  }

  const summary = (streams: Probed[]) =>
    streams.map((s) => [
      s.codec_name,
      s.codec_type === 'subtitle' ? s.tags?.language : s.width,
      Number(s.id),
    ]);

  it('program=2 takes program 2 alone; its subtitle tracks reach HLS segments with their languages', async () => {
    const streams = await segmentStreams('p2');
    expect(summary(streams)).toEqual([
      ['h264', 192, 258],
      ['dvb_subtitle', 'fra', 0x200],
      ['dvb_teletext', 'deu', 0x201],
    ]);
    // A 2 s segment holds a display set and a teletext page of each second.
    for (const s of streams) expect(Number(s.nb_read_packets)).toBeGreaterThan(0);
  });

  it('keeps the teletext pages whole: ffmpeg (libzvbi) reads their text from an HLS segment', () => {
    return waitFor(async () => {
      const result = spawnSync(
        'ffmpeg',
        ['-hide_banner', '-loglevel', 'error', '-txt_format', 'text', '-i', 'pipe:0'].concat([
          '-map',
          '0:s:1',
          '-c:s',
          'webvtt',
          '-f',
          'webvtt',
          'pipe:1',
        ]),
        { input: await newestSegment('p2'), timeout: 20_000 },
      );
      // A segment's last page ends with the next segment, so wait for one holding two pages.
      return /-->.*\nLine \d+\n/.test(result.stdout.toString()) ? true : undefined;
    }, 20_000);
  });

  it('carries the subtitle tracks in the continuous MPEG-TS too', async () => {
    const streams = await mpegtsStreams('p2');
    expect(summary(streams)).toEqual([
      ['h264', 192, 258],
      ['dvb_subtitle', 'fra', 0x200],
      ['dvb_teletext', 'deu', 0x201],
    ]);
    for (const s of streams) expect(Number(s.nb_read_packets)).toBeGreaterThan(0);
  });

  it('pids=256 takes that track alone: program 1 picture, without its tone', async () => {
    expect(summary(await mpegtsStreams('pids'))).toEqual([['h264', 160, 256]]);
    expect(summary(await segmentStreams('pids'))).toEqual([['h264', 160, 256]]);
  });

  it('allow_subtitles=false drops the subtitle tracks, the PMT listing the picture alone', async () => {
    expect(summary(await segmentStreams('nosubs'))).toEqual([['h264', 192, 258]]);
  });
});
