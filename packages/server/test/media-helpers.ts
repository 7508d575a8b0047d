import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import type { StreamStats } from '@sluice/api';
import type { RunningServer } from './harness.js';

/**
 * What a live encoder in the tests sends: a small test pattern with a tone, H.264 (a keyframe every
 * second, no B-frames to wait for) and the given audio codec, in real time.
 */
export function testEncoderArgs(toneHz = 440, audioCodec = 'aac'): string[] {
  return [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
    ...['-re', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25'],
    ...['-re', '-f', 'lavfi', '-i', `sine=frequency=${toneHz}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p', '-g', '25'],
    ...['-c:a', audioCodec],
  ];
}

/** An ffmpeg sending the test pattern as MPEG-TS over UDP (what a headend does). */
export function udpSender(port: number, toneHz = 440): { stop: () => Promise<void> } {
  const child = spawn(
    'ffmpeg',
    [...testEncoderArgs(toneHz), '-f', 'mpegts', `udp://127.0.0.1:${port}?pkt_size=1316`],
    { stdio: 'ignore' },
  );
  return { stop: () => stopChild(child) };
}

/** An encoder publishing the test pattern over RTMP; `exited` resolves with its exit code. */
export function rtmpPublisher(
  url: string,
  audioCodec: 'aac' | 'libmp3lame' = 'aac',
): { stop: () => Promise<void>; exited: Promise<number | null> } {
  const child = spawn('ffmpeg', [...testEncoderArgs(440, audioCodec), '-f', 'flv', url], { stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { stop: () => stopChild(child), exited };
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  return exited;
}

export async function streamStats(
  server: RunningServer,
  name: string,
  location?: string,
): Promise<StreamStats> {
  const config = (await (await server.api('/flussonic/api/read_config')).json()) as Record<
    string,
    Record<string, unknown>
  >;
  const item = location
    ? ((config.lives?.[location] as { streams?: Record<string, { stats?: StreamStats }> })?.streams?.[name] ??
      {})
    : ((config.streams?.[name] as { stats?: StreamStats }) ?? {});
  return (item as { stats?: StreamStats }).stats ?? {};
}

export async function modifyConfig(server: RunningServer, delta: unknown): Promise<void> {
  const response = await server.api('/flussonic/api/modify_config', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(delta),
  });
  if (!response.ok) throw new Error(`modify_config: ${response.status} ${await response.text()}`);
}

export async function getText(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url);
  return { status: response.status, text: await response.text() };
}

export async function getBytes(url: string): Promise<Buffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/** The URIs of a media playlist's segments, in order. */
export const segmentUris = (playlist: string): string[] =>
  playlist.split('\n').filter((l) => l && !l.startsWith('#'));

export const mediaSequence = (playlist: string): number =>
  Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist)?.[1]);

export interface ProbedStream {
  codec_name: string;
  width?: number;
  pix_fmt?: string;
}

/** ffprobe's streams of a URL or of bytes on stdin. */
export function probeStreams(input: string | Buffer, extra: string[] = []): ProbedStream[] {
  const fromStdin = typeof input !== 'string';
  const result = spawnSync(
    'ffprobe',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-of',
      'json',
      '-show_streams',
      ...extra,
      '-i',
      fromStdin ? 'pipe:0' : input,
    ],
    { input: fromStdin ? input : undefined, timeout: 20_000, maxBuffer: 32 * 1024 * 1024 },
  );
  if (result.status !== 0) throw new Error(`ffprobe: ${result.stderr?.toString()}`);
  return (JSON.parse(result.stdout.toString()) as { streams: ProbedStream[] }).streams;
}

/** Whether the first video frame of a TS segment is a keyframe, as ffprobe decodes it. */
export function startsWithKeyframe(segment: Buffer): boolean {
  const result = spawnSync(
    'ffprobe',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-of',
      'json',
      '-show_frames',
      '-select_streams',
      'v',
      '-read_intervals',
      '%+#1',
      '-i',
      'pipe:0',
    ],
    { input: segment, timeout: 20_000, maxBuffer: 32 * 1024 * 1024 },
  );
  const frames = (JSON.parse(result.stdout.toString()) as { frames?: { key_frame: number }[] }).frames ?? [];
  return frames[0]?.key_frame === 1;
}
