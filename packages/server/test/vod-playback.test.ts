import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer } from './harness.js';
import { getBytes, getText, probeStreams, segmentUris } from './media-helpers.js';
import { decodeTs, makeMovie, parseMaster, parseMedia, rawGet, remux } from './vod-playback-fixture.js';

/** VOD playback of files under a `file PREFIX { path DIR; }` (issue 16): the file, HLS, MPEG-TS. */
describe('VOD playback', () => {
  let server: RunningServer;
  let media: string;
  let outside: string;
  let movie: Buffer;

  beforeAll(async () => {
    media = await mkdtemp(join(tmpdir(), 'sluice-vod-'));
    outside = await mkdtemp(join(tmpdir(), 'sluice-vod-outside-'));
    await mkdir(join(media, 'shows'));
    makeMovie(join(media, 'movie.mp4'), 10);
    makeMovie(join(media, 'shows', 'two audio.mp4'), 6, 2);
    remux(join(media, 'movie.mp4'), join(media, 'shows', 'clip.mkv'));
    // A damaged file: an MP4 name, random bytes.
    await writeFile(join(media, 'broken.mp4'), randomBytes(4096));
    await writeFile(join(outside, 'secret.mp4'), 'SECRET-BYTES');
    await symlink(join(outside, 'secret.mp4'), join(media, 'link-out.mp4'));
    movie = await readFile(join(media, 'movie.mp4'));
    // One segment read of a file at a time, two in the VOD: a crowd of requests waits its turn.
    const vod = `file vod {\n  path ${media};\n  read_queue 2;\n  max_readers 1;\n}\n`;
    server = await startServer({ config: `${minimalConfig}${vod}` });
  }, 120_000);
  afterAll(async () => {
    await server?.cleanup();
    await rm(media, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  const url = (path: string) => `${server.url}/vod/${path}`;

  it('serves the file as it is, whole and by byte range (first bytes, middle, suffix), 416 past the end', async () => {
    const whole = await fetch(url('movie.mp4'));
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer()).equals(movie)).toBe(true);

    const ranged = async (range: string) => {
      const response = await fetch(url('movie.mp4'), { headers: { range } });
      return { response, bytes: Buffer.from(await response.arrayBuffer()) };
    };
    const first = await ranged('bytes=0-99');
    expect(first.response.status).toBe(206);
    expect(first.response.headers.get('content-range')).toBe(`bytes 0-99/${movie.length}`);
    expect(first.bytes.equals(movie.subarray(0, 100))).toBe(true);
    const middle = await ranged('bytes=5000-5999');
    expect(middle.response.status).toBe(206);
    expect(middle.bytes.equals(movie.subarray(5000, 6000))).toBe(true);
    const suffix = await ranged('bytes=-500');
    expect(suffix.response.headers.get('content-range')).toBe(
      `bytes ${movie.length - 500}-${movie.length - 1}/${movie.length}`,
    );
    expect(suffix.bytes.equals(movie.subarray(movie.length - 500))).toBe(true);
    const past = await ranged(`bytes=${movie.length}-`);
    expect(past.response.status).toBe(416);
    expect(past.response.headers.get('content-range')).toBe(`bytes */${movie.length}`);
  });

  it('answers HEAD with the size and no body', async () => {
    const head = await fetch(url('movie.mp4'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(movie.length);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('HLS: the master and media playlists parse, and every segment decodes as H.264 + AAC', async () => {
    const master = parseMaster((await getText(url('movie.mp4/index.m3u8'))).text);
    expect(master.variants).toHaveLength(1);
    const variant = master.variants[0]!;
    expect(variant.bandwidth).toBeGreaterThan(50_000);
    expect(variant.codecs).toMatch(/avc1\.[0-9a-fA-F]{6}.*mp4a\.40\.2|mp4a\.40\.2.*avc1/);
    expect(variant.resolution).toEqual({ width: 320, height: 180 });
    const text = (await getText(url(`movie.mp4/${variant.uri}`))).text;
    const playlist = parseMedia(text);
    expect(playlist.playlistType).toBe('VOD');
    expect(playlist.endlist).toBe(true);
    const longest = Math.max(...playlist.segments.map((s) => s.duration));
    expect(playlist.targetDuration).toBe(Math.ceil(longest));
    const total = playlist.segments.reduce((sum, s) => sum + s.duration, 0);
    expect(total).toBeGreaterThan(9.5);
    expect(total).toBeLessThan(10.5);
    // All asked at once: max_readers 1 queues them, each is answered.
    const segments = await Promise.all(segmentUris(text).map((uri) => getBytes(url(`movie.mp4/${uri}`))));
    expect(probeStreams(segments[1]!).map((s) => s.codec_name)).toEqual(['h264', 'aac']);
    const all = decodeTs(Buffer.concat(segments));
    expect(all.errors).toBe('');
    expect(all.durationS).toBeGreaterThan(9.5);
  });

  it('HLS: a file with two audio tracks lists two audio renditions, each with its own playlist', async () => {
    const base = url('shows/two%20audio.mp4');
    const master = parseMaster((await getText(`${base}/index.m3u8`)).text);
    const audio = master.variants[0]!.audio;
    expect(audio.map((a) => a.language)).toEqual(['eng', 'fra']);
    expect(audio.map((a) => a.isDefault)).toEqual([true, false]);
    for (const rendition of audio) {
      const text = (await getText(`${base}/${rendition.uri}`)).text;
      expect(parseMedia(text).endlist).toBe(true);
      const segment = await getBytes(`${base}/${segmentUris(text)[0]}`);
      expect(probeStreams(segment).map((s) => s.codec_name)).toEqual(['aac']);
    }
    const video = (await getText(`${base}/${master.variants[0]!.uri}`)).text;
    const segment = await getBytes(`${base}/${segmentUris(video)[0]}`);
    expect(probeStreams(segment).map((s) => s.codec_name)).toEqual(['h264']);
  });

  it('HLS of a file that is not MP4 (MKV, read through ffmpeg): its segments decode in a row', async () => {
    const base = url('shows/clip.mkv');
    const master = parseMaster((await getText(`${base}/index.m3u8`)).text);
    expect(master.variants[0]!.resolution).toEqual({ width: 320, height: 180 });
    const text = (await getText(`${base}/${master.variants[0]!.uri}`)).text;
    expect(parseMedia(text).endlist).toBe(true);
    const segments: Buffer[] = [];
    for (const uri of segmentUris(text)) segments.push(await getBytes(`${base}/${uri}`));
    const all = decodeTs(Buffer.concat(segments));
    expect(all.errors).toBe('');
    expect(all.durationS).toBeGreaterThan(9.5);
  });

  it('MPEG-TS: /mpegts is the whole file as one continuous TS that decodes without an error', async () => {
    const response = await fetch(url('movie.mp4/mpegts'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp2t');
    const decoded = decodeTs(Buffer.from(await response.arrayBuffer()));
    expect(decoded.errors).toBe('');
    expect(decoded.durationS).toBeGreaterThan(9.5);
    expect(decoded.durationS).toBeLessThan(10.5);
  });

  it('refuses every path trick with a 4xx, and never sends a byte from outside the root', async () => {
    const tricks = [
      '/vod/../sluice.conf',
      '/vod/%2e%2e/sluice.conf',
      '/vod/..%2fsluice.conf',
      '/vod/shows/..%2f..%2fsluice.conf',
      '/vod/shows%5c..%5cmovie.mp4',
      '/vod/movie.mp4%00.txt',
      '/vod/%E0%A4%A',
      '/vod//movie.mp4',
      '/vod/link-out.mp4',
      '/vod/link-out.mp4/index.m3u8',
    ];
    for (const path of tricks) {
      const answer = await rawGet(server.port, path);
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
      expect(answer.body, path).not.toContain('SECRET');
      expect(answer.body, path).not.toContain('edit_auth');
      // A player is never told where the VOD's files are on this server.
      expect(answer.body, path).not.toContain(tmpdir());
    }
    expect((await rawGet(server.port, '/vod/link-out.mp4')).status).toBe(403);
  });

  it('a missing file is a 404 naming it', async () => {
    expect(await getText(url('shows/nothing.mp4'))).toEqual({
      status: 404,
      text: JSON.stringify({ error: 'file vod/shows/nothing.mp4 is not found' }),
    });
    const playlist = await getText(url('shows/nothing.mp4/index.m3u8'));
    expect(playlist.status).toBe(404);
    expect(playlist.text).toContain('vod/shows/nothing.mp4');
  });

  it('a damaged file answers 4xx/5xx naming it, and the server goes on answering', async () => {
    for (const resource of ['index.m3u8', 'video.m3u8', 'seg-0.ts', 'mpegts']) {
      const answer = await getText(url(`broken.mp4/${resource}`));
      expect(answer.status, resource).toBeGreaterThanOrEqual(400);
      expect(answer.text, resource).toContain('vod/broken.mp4');
      expect(answer.text, resource).not.toContain(media);
    }
    expect((await getText(url('movie.mp4/index.m3u8'))).status).toBe(200);
    expect((await server.api('/flussonic/api/server')).status).toBe(200);
  });
});
