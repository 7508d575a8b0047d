import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { probeStreams, stopChild, streamStats, testEncoderArgs } from './media-helpers.js';

const PUBLISH_PASSPHRASE = 'publish-secret-1';
const PLAY_PASSPHRASE = 'play-secret-12';
const SOURCE_PASSPHRASE = 'source-secret-1';

/** An encoder sending the test pattern as MPEG-TS over SRT (caller mode unless the URL says listener). */
function srtSender(url: string) {
  const child = spawn('ffmpeg', [...testEncoderArgs(), '-f', 'mpegts', url], { stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { stop: () => stopChild(child), exited };
}

/** SRT ingest, playback and srt:// sources through ffmpeg's libsrt (issue 18). */
describe('SRT', () => {
  let server: RunningServer;
  let publishPort: number;
  let playPort: number;
  let sourcePort: number;
  const children: { stop: () => Promise<void> }[] = [];

  beforeAll(async () => {
    [publishPort, playPort, sourcePort] = [await freePort(), await freePort(), await freePort()];
    server = await startServer({
      config:
        `${minimalConfig}stream srtcam {\n  publish_enabled true;\n  static true;\n` +
        `  srt_publish {\n    port ${publishPort};\n    passphrase ${PUBLISH_PASSPHRASE};\n  }\n` +
        `  srt_play {\n    port ${playPort};\n    passphrase ${PLAY_PASSPHRASE};\n  }\n}\n`,
    });
  });
  afterAll(async () => {
    await Promise.all(children.map((c) => c.stop()));
    await server?.cleanup();
  });

  it('refuses a caller with a wrong passphrase, with a log line', async () => {
    await waitFor(() => server.output().includes(`srt publish srtcam on port ${publishPort}: listening`));
    const intruder = srtSender(`srt://127.0.0.1:${publishPort}?passphrase=wrong-secret-1`);
    children.push(intruder);
    expect(await intruder.exited).not.toBe(0);
    await waitFor(() =>
      new RegExp(
        `srt publish srtcam on port ${publishPort}: caller 127\\.0\\.0\\.1 refused: incorrect passphrase`,
      ).test(server.output()),
    );
    expect((await streamStats(server, 'srtcam')).published_from).toBeUndefined();
  });

  it('takes an SRT publish into the stream: published, with stats, playable as HLS', async () => {
    children.push(srtSender(`srt://127.0.0.1:${publishPort}?passphrase=${PUBLISH_PASSPHRASE}`));
    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'srtcam');
      return s.alive && (s.bitrate ?? 0) > 0 ? s : undefined;
    }, 20_000);
    expect(stats).toMatchObject({ published_from: '127.0.0.1', published_via: 'srt' });
    const streams = probeStreams(`${server.url}/srtcam/index.m3u8`);
    expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
  });

  it('plays the stream over SRT to ffmpeg, counted as a client', async () => {
    const run = spawnSync(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
        ...['-i', `srt://127.0.0.1:${playPort}?passphrase=${PLAY_PASSPHRASE}`],
        ...['-map', '0:v', '-frames:v', '25', '-f', 'framecrc', '-'],
      ],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(run.status, run.stderr + server.output()).toBe(0);
    // framecrc: one line per decoded frame of stream 0.
    expect(run.stdout.split('\n').filter((l) => /^0,/.test(l)).length).toBe(25);
    await waitFor(async () => ((await streamStats(server, 'srtcam')).bytes_out ?? 0) > 0);
  });

  it('pulls an srt:// source from an SRT listener (an encoder in listener mode)', async () => {
    children.push(srtSender(`srt://127.0.0.1:${sourcePort}?mode=listener&passphrase=${SOURCE_PASSPHRASE}`));
    const response = await server.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        streams: {
          pulled: {
            urls: [{ url: `srt://127.0.0.1:${sourcePort}?passphrase=${SOURCE_PASSPHRASE}` }],
            static: true,
          },
        },
      }),
    });
    expect(response.ok).toBe(true);
    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'pulled');
      return s.alive ? s : undefined;
    }, 20_000);
    expect(stats.url).toMatch(/^srt:\/\//);
    expect(stats.media_info?.tracks.map((t) => t.codec)).toEqual(['h264', 'aac']);
  });
});
