import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSelfSigned } from '../src/tls/self-signed.js';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import {
  modifyConfig,
  probeStreams,
  rtmpPublisher,
  stopChild,
  streamStats,
  testEncoderArgs,
} from './media-helpers.js';
import { framesDecoded, request, run } from './rtsp-helpers.js';
import { accepts, plainBytesClosedAfterMs, rtspsAsk, TlsPeer } from './tls-media-helpers.js';

const HANDSHAKE_TIMEOUT_MS = 4000;

/**
 * RTMPS and RTSPS (issue 19): the RTMP and RTSP servers behind TLS on the `rtmps` and `rtsps`
 * ports, with the server's certificate (self-signed at first start), real ffmpeg on both ends.
 */
describe('RTMPS and RTSPS', () => {
  let server: RunningServer;
  let rtmps: number;
  let rtsps: number;

  beforeAll(async () => {
    [rtmps, rtsps] = [await freePort(), await freePort()];
    server = await startServer({
      config:
        `${minimalConfig}rtmps ${rtmps};\nrtsps ${rtsps};\n` +
        `stream t {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n` +
        `stream cam {\n  publish_enabled true;\n  password s3cret;\n  static true;\n}\n`,
      env: {
        SLUICE_RTMP_HANDSHAKE_TIMEOUT_MS: String(HANDSHAKE_TIMEOUT_MS),
        SLUICE_RTSP_HANDSHAKE_TIMEOUT_MS: String(HANDSHAKE_TIMEOUT_MS),
      },
    });
    // The listeners open once the config is applied.
    await waitFor(async () => (await accepts(rtmps)) && (await accepts(rtsps)));
  }, 60_000);
  afterAll(async () => {
    await server?.cleanup();
  });

  it('ffmpeg publishes over rtmps:// with the stream password and it plays as HLS; a wrong password is refused', async () => {
    const wrong = await run('ffmpeg', [
      ...['-hide_banner', '-re', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:duration=4'],
      ...[
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-f',
        'flv',
        `rtmps://127.0.0.1:${rtmps}/static/cam?password=nope`,
      ],
    ]);
    expect(wrong.code).not.toBe(0);
    expect(server.output()).toMatch(/rtmp publish static\/cam from 127\.0\.0\.1 refused: .*password/);

    const publisher = rtmpPublisher(`rtmps://127.0.0.1:${rtmps}/static/cam?password=s3cret`);
    try {
      const stats = await waitFor(async () => {
        const s = await streamStats(server, 'cam');
        return s.alive && (s.bitrate ?? 0) > 0 ? s : undefined;
      }, 30_000);
      expect(stats).toMatchObject({ published_from: '127.0.0.1', published_via: 'rtmp' });
      const streams = probeStreams(`${server.url}/cam/index.m3u8`);
      expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    } finally {
      await publisher.stop();
    }
  }, 60_000);

  it('ffmpeg plays over rtsps:// (TCP interleaved): H.264 video, frames decoded', async () => {
    await waitFor(async () => (await streamStats(server, 't')).alive, 30_000);
    const url = `rtsps://127.0.0.1:${rtsps}/static/t`;
    const streams = probeStreams(url);
    expect(streams.map((s) => s.codec_name)).toContain('h264');
    const played = await run('ffmpeg', [
      ...['-hide_banner', '-nostdin', '-i', url],
      ...['-frames:v', '25', '-f', 'null', '-'],
    ]);
    expect(played.code).toBe(0);
    expect(framesDecoded(played.output)).toBeGreaterThanOrEqual(25);
  }, 60_000);

  it('ffmpeg plays over rtmps:// and publishes over rtsps:// (the other direction of each)', async () => {
    await waitFor(async () => (await streamStats(server, 't')).alive, 30_000);
    const played = await run('ffmpeg', [
      ...['-hide_banner', '-nostdin', '-i', `rtmps://127.0.0.1:${rtmps}/static/t`],
      ...['-frames:v', '25', '-f', 'null', '-'],
    ]);
    expect(played.code).toBe(0);
    expect(framesDecoded(played.output)).toBeGreaterThanOrEqual(25);

    const publisher = spawn('ffmpeg', [
      ...testEncoderArgs(),
      ...['-f', 'rtsp', `rtsps://127.0.0.1:${rtsps}/static/cam?password=s3cret`],
    ]);
    try {
      const stats = await waitFor(async () => {
        const s = await streamStats(server, 'cam');
        return s.alive && s.published_via === 'rtsp' && (s.bitrate ?? 0) > 0 ? s : undefined;
      }, 30_000);
      expect(stats.media_info?.tracks.map((t) => t.codec).sort()).toEqual(['aac', 'h264']);
    } finally {
      await stopChild(publisher);
    }
  }, 60_000);

  it('refuses RTP over UDP on RTSPS with 461 Unsupported Transport (the media would go in clear)', async () => {
    const url = `rtsps://127.0.0.1:${rtsps}/static/t/trackID=1`;
    const answer = await rtspsAsk(
      rtsps,
      request('SETUP', url, 3, ['Transport: RTP/AVP;unicast;client_port=5000-5001']),
    );
    expect(answer).toMatch(/^RTSP\/1\.0 461 Unsupported Transport\r\n/);
    expect(server.output()).toContain('(RTSPS serves TCP interleaved only)');
  });

  it('ends plain RTMP, plain RTSP and garbage on the TLS ports, and a stalled handshake at its timeout; the ports keep serving', async () => {
    // An RTMP C0+C1 on the RTMPS port, an RTSP request on the RTSPS port, bytes that are nothing.
    const rtmpHello = Buffer.concat([Buffer.from([3]), Buffer.alloc(1536, 7)]);
    const plainRtsp = request('OPTIONS', `rtsp://127.0.0.1:${rtsps}/static/t`, 1);
    const closes = await Promise.all([
      plainBytesClosedAfterMs(rtmps, rtmpHello),
      plainBytesClosedAfterMs(rtsps, plainRtsp),
      plainBytesClosedAfterMs(rtmps, Buffer.from('\x16\x03\x01\xff\xffnot a client hello')),
    ]);
    // Refused at their first bytes, long before any timeout.
    for (const ms of closes) expect(ms).toBeLessThan(HANDSHAKE_TIMEOUT_MS);
    const output = server.output();
    expect(output).toMatch(/rtmps connection from 127\.0\.0\.1 ended: TLS handshake failed/);
    expect(output).toMatch(/rtsps connection from 127\.0\.0\.1 ended: TLS handshake failed/);

    // Silent peers: dropped at the handshake timeout, not held.
    const stalled = await Promise.all([
      plainBytesClosedAfterMs(rtmps, ''),
      plainBytesClosedAfterMs(rtsps, '\x16\x03\x01'),
    ]);
    for (const ms of stalled) expect(ms).toBeGreaterThanOrEqual(HANDSHAKE_TIMEOUT_MS - 500);
    expect(server.output()).toContain(
      `rtmps connection from 127.0.0.1 ended: no TLS handshake within ${HANDSHAKE_TIMEOUT_MS} ms`,
    );
    expect(server.output()).toContain(
      `rtsps connection from 127.0.0.1 ended: no TLS handshake within ${HANDSHAKE_TIMEOUT_MS} ms`,
    );

    expect(await rtspsAsk(rtsps, request('OPTIONS', `rtsps://127.0.0.1:${rtsps}/static/t`, 1))).toMatch(
      /^RTSP\/1\.0 200 OK/,
    );
    const peer = await TlsPeer.open(rtmps);
    expect(peer.closed).toBe(false);
    peer.destroy();
  }, 30_000);

  it('presents a replaced certificate file to the next RTMPS and RTSPS handshake, without reopening the ports', async () => {
    const next = makeSelfSigned('replaced.example');
    await writeFile(join(server.dir, 'tls', 'server.key'), next.keyPem);
    await writeFile(join(server.dir, 'tls', 'server.crt'), next.certPem);
    const served = async (port: number) => {
      const peer = await TlsPeer.open(port);
      peer.destroy();
      return peer.servedName;
    };
    await waitFor(async () => (await served(rtmps)) === 'replaced.example');
    expect(await served(rtsps)).toBe('replaced.example');
  });

  it('moves both ports live when modify_config changes them, and closes them when removed', async () => {
    const [newRtmps, newRtsps] = [await freePort(), await freePort()];
    await modifyConfig(server, { rtmps: newRtmps, rtsps: newRtsps });
    await waitFor(async () => !(await accepts(rtmps)) && !(await accepts(rtsps)));
    const options = (port: number) => request('OPTIONS', `rtsps://127.0.0.1:${port}/static/t`, 1);
    expect(await rtspsAsk(newRtsps, options(newRtsps))).toMatch(/^RTSP\/1\.0 200 OK/);
    const peer = await TlsPeer.open(newRtmps);
    // The server's own certificate (self-signed at first start, named for this host).
    expect(peer.servedName).not.toBe('');
    peer.destroy();

    await modifyConfig(server, { rtmps: null, rtsps: null });
    await waitFor(async () => !(await accepts(newRtmps)) && !(await accepts(newRtsps)));
  }, 30_000);
});
