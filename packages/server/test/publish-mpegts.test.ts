import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { probeStreams, stopChild, streamStats, testEncoderArgs } from './media-helpers.js';

/** An encoder publishing the test pattern as MPEG-TS in the body of an HTTP PUT (ffmpeg -method PUT). */
function httpTsPublisher(url: string, extra: string[] = []) {
  const child = spawn('ffmpeg', [...testEncoderArgs(), ...extra, '-f', 'mpegts', '-method', 'PUT', url], {
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { stop: () => stopChild(child), exited };
}

/** A raw POST whose body is what `feed` writes; resolves with the status the server answered. */
function rawPost(url: string, feed: (write: (chunk: Buffer) => void) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    // The headers go now even when the body sends nothing (a stalled publisher).
    req.flushHeaders();
    feed((chunk) => req.write(chunk));
  });
}

/** HTTP MPEG-TS publish (spec 001 §9 publish URLs: HTTP MPEG-TS host/name/mpegts), issue 18. */
describe('HTTP MPEG-TS publish', () => {
  let server: RunningServer;
  const publishers: { stop: () => Promise<void> }[] = [];

  beforeAll(async () => {
    server = await startServer({
      config:
        `${minimalConfig}live live {\n  source_timeout 2;\n}\n` +
        `stream cam {\n  publish_enabled true;\n  password s3cret;\n  static true;\n}\n` +
        `stream slow {\n  publish_enabled true;\n  static true;\n}\n` +
        `stream capped {\n  publish_enabled true;\n  max_bitrate 20;\n  static true;\n}\n`,
      env: { SLUICE_TS_PUBLISH_IDLE_TIMEOUT_MS: '1500' },
    });
  });
  afterAll(async () => {
    await Promise.all(publishers.map((p) => p.stop()));
    await server?.cleanup();
  });

  it('ffmpeg PUTs into a location: a published stream with stats, playable as HLS', async () => {
    const publisher = httpTsPublisher(`${server.url}/live/ts1/mpegts`);
    publishers.push(publisher);
    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'live/ts1', 'live');
      return s.alive && (s.bitrate ?? 0) > 0 ? s : undefined;
    }, 20_000);
    expect(stats).toMatchObject({ published_from: '127.0.0.1', published_via: 'mpegts', url: 'publish://' });
    const streams = probeStreams(`${server.url}/live/ts1/index.m3u8`);
    expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
  });

  it('refuses a wrong password with 403 and a log line, takes the right one (curl -T, chunked POST)', async () => {
    const wrong = await rawPost(`${server.url}/cam/mpegts?password=wrong`, () => undefined);
    expect(wrong).toBe(403);
    await waitFor(() =>
      /mpegts publish static\/cam from 127\.0\.0\.1 refused: wrong or missing password/.test(server.output()),
    );
    // curl -T - sends stdin as a chunked PUT: an encoder's output piped in.
    const encoder = spawn('ffmpeg', [...testEncoderArgs(), '-f', 'mpegts', '-'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const curl = spawn('curl', ['-sS', '-T', '-', `${server.url}/cam/mpegts?password=s3cret`], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    encoder.stdout!.pipe(curl.stdin!);
    // Whichever of the two is stopped first at the end, the other's pipe end may still be written:
    // an EPIPE there is the teardown, not a failure of the test.
    curl.stdin!.on('error', () => undefined);
    encoder.stdout!.on('error', () => undefined);
    publishers.push({ stop: () => stopChild(encoder) }, { stop: () => stopChild(curl) });
    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'cam');
      return s.alive ? s : undefined;
    }, 20_000);
    expect(stats).toMatchObject({ published_from: '127.0.0.1', published_via: 'mpegts', retry_count: 0 });
  });

  it('ends a body that is not MPEG-TS with 400, a stalled one with 408; other streams go on', async () => {
    const garbage = Buffer.alloc(16 * 1024, 0x5a);
    const status = await rawPost(`${server.url}/slow/mpegts`, (write) => {
      for (let i = 0; i < 8; i++) write(garbage);
    });
    expect(status).toBe(400);
    await waitFor(() =>
      /mpegts publish static\/slow from 127\.0\.0\.1 ended: not MPEG-TS/.test(server.output()),
    );
    // A publisher that sends a little and then nothing is cut off after the idle timeout (1.5 s here).
    const stalled = await rawPost(`${server.url}/slow/mpegts`, (write) => write(Buffer.alloc(188, 0x47)));
    expect(stalled).toBe(408);
    await waitFor(() =>
      /mpegts publish static\/slow from 127\.0\.0\.1 ended: nothing received for 1500 ms/.test(
        server.output(),
      ),
    );
    await waitFor(async () => (await streamStats(server, 'slow')).published_from === undefined);
    // The stream published in the first test still plays.
    expect(probeStreams(`${server.url}/live/ts1/index.m3u8`).length).toBe(2);
  });

  it('disconnects a publisher over max_bitrate', async () => {
    const publisher = httpTsPublisher(`${server.url}/capped/mpegts`);
    publishers.push(publisher);
    expect(await publisher.exited).not.toBeNull();
    await waitFor(() =>
      /mpegts publish static\/capped from 127\.0\.0\.1 ended: disconnected by the server/.test(
        server.output(),
      ),
    );
    await waitFor(async () => (await streamStats(server, 'capped')).published_from === undefined);
  });
});
