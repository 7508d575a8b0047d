import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getBytes, getText, probeStreams, segmentUris, streamStats, udpSender } from './media-helpers.js';

/**
 * The fallback video (a stream's `backup`): played in a loop while every source is down, after a
 * discontinuity, until the source is back; a backup file that doesn't exist is the stream's error.
 */
describe('fallback video', () => {
  let server: RunningServer;
  let sender: { stop: () => Promise<void> } | undefined;
  let dir: string;
  let port: number;
  let slate: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-backup-'));
    slate = join(dir, 'slate.mp4');
    // 2 s of a 160x120 picture: told apart from the 320x240 source by its size.
    const made = spawnSync('ffmpeg', [
      ...[
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=160x120:rate=25:duration=2',
      ],
      ...['-f', 'lavfi', '-i', 'sine=frequency=1000:duration=2'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25', '-c:a', 'aac', slate],
    ]);
    expect(made.status).toBe(0);
    port = await freePort();
    sender = udpSender(port);
    const silent = await freePort();
    server = await startServer({
      config:
        `${minimalConfig}stream tv {\n  url udp://127.0.0.1:${port};\n  backup ${slate};\n  source_timeout 2;\n  static true;\n}\n` +
        `stream broken {\n  url udp://127.0.0.1:${silent};\n  backup ${join(dir, 'missing.mp4')};\n  source_timeout 1;\n  static true;\n}\n`,
    });
  });
  afterAll(async () => {
    await sender?.stop();
    await server?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const playing = async (want: string) => {
    const stats = await streamStats(server, 'tv');
    return stats.alive && stats.url === want ? stats : undefined;
  };
  const lastSegmentWidth = async () => {
    const uris = segmentUris((await getText(`${server.url}/tv/video.m3u8`)).text);
    const last = uris.at(-1);
    if (!last) return undefined;
    return probeStreams(await getBytes(`${server.url}/tv/${last}`)).find((s) => s.width)?.width;
  };

  it('plays the source while it sends, and says the backup is not playing', async () => {
    const stats = await waitFor(() => playing(`udp://127.0.0.1:${port}`), 20_000);
    expect(stats.backup).toBe(false);
    expect(await waitFor(async () => (await lastSegmentWidth()) === 320, 20_000)).toBe(true);
  });

  it('plays the backup in a loop after a discontinuity when the source stops', async () => {
    await sender!.stop();
    sender = undefined;
    const stats = await waitFor(() => playing(`file://${slate}`), 20_000);
    expect(stats.backup).toBe(true);
    // The backup's own segments (160 wide) follow the source's, marked as a discontinuity.
    expect(await waitFor(async () => (await lastSegmentWidth()) === 160, 20_000)).toBe(true);
    const playlist = (await getText(`${server.url}/tv/video.m3u8`)).text;
    expect(playlist).toContain('#EXT-X-DISCONTINUITY');
    // Past the file's 2 s it still plays: looped, not ended.
    const started = stats.lifetime!;
    const later = await waitFor(async () => {
      const now = await playing(`file://${slate}`);
      return now && now.lifetime! > started + 3000 ? now : undefined;
    }, 20_000);
    expect(later.ts_delay).toBeLessThan(2000);
  });

  it('returns to the source when it is back', async () => {
    sender = udpSender(port);
    const stats = await waitFor(() => playing(`udp://127.0.0.1:${port}`), 20_000);
    expect(stats.backup).toBe(false);
    expect(await waitFor(async () => (await lastSegmentWidth()) === 320, 20_000)).toBe(true);
  });

  it('shows a missing backup file as the stream error, retrying at the source timeout, not in a storm', async () => {
    const shown = await waitFor(async () => {
      const stats = await streamStats(server, 'broken');
      return stats.source_error?.includes('does not exist') ? stats : undefined;
    }, 20_000);
    expect(shown.source_error).toBe(`backup file ${join(dir, 'missing.mp4')} does not exist`);
    expect(shown.backup).toBe(false);
    // One attempt (the source or the backup) per 1 s timeout, at most, since the stream started
    // (with the tests above, over 10 s ago): a storm would count hundreds.
    expect(shown.lifetime).toBeGreaterThan(5000);
    expect(shown.retry_count).toBeLessThanOrEqual(shown.lifetime! / 1000 + 2);
    expect(server.process.exitCode).toBeNull();
  });
});
