import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseHls, setOptions as setHlsOptions } from 'hls-parser';
import type { MediaPlaylist } from 'hls-parser/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstBytes, startAuthBackend, type TestBackend } from './auth-helpers.js';
import { type FixtureArchive, makeFixtureArchive, probe } from './dvr-archive-fixture.js';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, modifyConfig, streamStats } from './media-helpers.js';

/**
 * Archive playback at Flussonic's URLs, from an archive already on disk when the server starts
 * (made with ffmpeg in the recorder's layout): 5 segments of 2 s, a 30 s outage, 5 more.
 */
describe('DVR archive playback', () => {
  let server: RunningServer;
  let backend: TestBackend;
  let cam: FixtureArchive;
  // Seconds of the archive's start, and of the start of its second range (after the gap).
  let from: number;
  let second: number;
  const strict = (text: string) => {
    setHlsOptions({ strictMode: true, silent: true });
    return parseHls(text) as MediaPlaylist;
  };
  const json = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    backend = await startAuthBackend(['good']);
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'sluice-dvr-archive-'));
    const root = join(dir, 'dvr');
    // Ten minutes ago, on a whole second: well inside the 1 h depth, so retention keeps it.
    const startMs = Math.floor((Date.now() - 600_000) / 1000) * 1000;
    cam = await makeFixtureArchive(root, 'cam', { startMs });
    await makeFixtureArchive(root, 'locked', { startMs, before: 2, after: 1 });
    from = startMs / 1000;
    second = (startMs + cam.before * cam.segmentMs + cam.gapMs) / 1000;
    await mkdir(dir, { recursive: true });
    const streams = ['cam', 'locked']
      .map((name) => `stream ${name} {\n  url publish://;\n  dvr ${root} 1h;\n}\n`)
      .join('');
    server = await startServer({
      dir,
      config: `${minimalConfig}${streams}stream nodvr {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n`,
    });
    await modifyConfig(server, { streams: { locked: { auth: { url: backend.url } } } });
    // The service reads the archives back at start: dvr_info shows both ranges.
    await waitFor(async () => (await streamStats(server, 'cam')).dvr_info?.ranges?.length === 2, 30_000);
  });
  afterAll(async () => {
    await server?.cleanup();
    await backend?.close();
  });

  it('archive-FROM-DURATION.m3u8 is a finished playlist with a discontinuity at the gap, and plays', async () => {
    const duration = 60;
    const { status, text } = await getText(`${server.url}/cam/archive-${from}-${duration}.m3u8`);
    expect(status).toBe(200);
    const playlist = strict(text);
    expect(playlist.playlistType).toBe('VOD');
    expect(playlist.endlist).toBe(true);
    expect(playlist.segments).toHaveLength(10);
    expect(playlist.segments.map((s) => Boolean(s.discontinuity))).toEqual([
      ...Array<boolean>(5).fill(false),
      true,
      ...Array<boolean>(4).fill(false),
    ]);
    // index-FROM-DURATION.m3u8 is the same playlist.
    expect((await getText(`${server.url}/cam/index-${from}-${duration}.m3u8`)).text).toBe(text);
    // ffprobe plays it through its segments (the gap takes no time): 10 segments of 2 s.
    const probed = probe(`${server.url}/cam/archive-${from}-${duration}.m3u8`);
    expect(probed.durationS).toBeGreaterThan(20 - 2);
    expect(probed.durationS).toBeLessThan(20 + 2);
    expect(probed.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    // Each playback request is a session, as live playback is.
    await waitFor(async () => ((await streamStats(server, 'cam')).client_count ?? 0) >= 1);
  });

  it('archive-FROM-DURATION.ts is the range as one MPEG-TS of the requested duration (± one segment)', async () => {
    const path = join(server.dir, 'range.ts');
    const response = await fetch(`${server.url}/cam/archive-${from + 2}-6.ts`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp2t');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    await writeFile(path, bytes);
    const probed = probe(path);
    expect(Math.abs(probed.durationS - 6)).toBeLessThanOrEqual(2);
  });

  it('archive-FROM-DURATION.mp4 is a seekable MP4 of the requested duration, made without re-encoding', async () => {
    const url = `${server.url}/cam/archive-${from}-10.mp4`;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    const mp4 = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get('content-length'))).toBe(mp4.length);
    // faststart: the index (moov) comes before the media (mdat), so a player can seek at once.
    expect(mp4.indexOf('moov')).toBeLessThan(mp4.indexOf('mdat'));
    const path = join(server.dir, 'range.mp4');
    await writeFile(path, mp4);
    const probed = probe(path);
    expect(probed.formatName).toContain('mp4');
    expect(Math.abs(probed.durationS - 10)).toBeLessThanOrEqual(2);
    // Same codecs as recorded: H.264 320x240 and AAC, copied.
    expect(probed.streams.find((s) => s.codec_type === 'video')).toMatchObject({
      codec_name: 'h264',
      width: cam.width,
      height: cam.height,
    });
    // A player seeking asks for a byte range: it gets that part of the same file.
    const part = await fetch(url, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${mp4.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(mp4.subarray(100, 200));
  });

  it('archive-FROM-DURATION.mpd is a static DASH presentation of the range that plays', async () => {
    const url = `${server.url}/cam/archive-${from}-10.mpd`;
    const { status, text } = await getText(url);
    expect(status).toBe(200);
    expect(text).toContain('type="static"');
    expect(text).toContain(`initialization="archive-${from}-10/init-$RepresentationID$.m4s"`);
    const probed = probe(url);
    expect(Math.abs(probed.durationS - 10)).toBeLessThanOrEqual(2);
    expect((await fetch(`${server.url}/cam/archive-${from}-10/init-0.m4s`)).status).toBe(200);
    expect((await fetch(`${server.url}/cam/archive-${from}-10/chunk-0-99999.m4s`)).status).toBe(404);
  });

  it('timeshift_abs-FROM.ts plays the archive from FROM as a live MPEG-TS', async () => {
    const { status, bytes } = await firstBytes(`${server.url}/cam/timeshift_abs-${second}.ts`);
    expect(status).toBe(200);
    expect(bytes[0]).toBe(0x47);
    expect(bytes[188]).toBe(0x47);
  });

  it('media_info.json lists the tracks of a stream that is not running, from its archive', async () => {
    const info = await json('/cam/media_info.json');
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      width: cam.width,
      height: cam.height,
      tracks: [
        { track_id: 'v1', content: 'video', codec: 'h264', width: cam.width, height: cam.height },
        { track_id: 'a1', content: 'audio', codec: 'aac' },
      ],
    });
  });

  it('media_info.json of a live stream without DVR is its live tracks', async () => {
    await waitFor(async () => (await streamStats(server, 'nodvr')).alive, 30_000);
    const info = await json('/nodvr/media_info.json');
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      tracks: expect.arrayContaining([expect.objectContaining({ content: 'video' })]),
    });
  });

  it('ranges.json and recording_status.json list the ranges, as the DVR player and middleware ask', async () => {
    const all = await json('/cam/ranges.json?resolution=0');
    expect(all.status).toBe(200);
    const ranges = all.body.ranges as {
      opened_at: number;
      closed_at: number;
      from: number;
      duration: number;
    }[];
    expect(ranges).toEqual([
      { opened_at: from * 1000, closed_at: from * 1000 + 10_000, from, duration: 10 },
      { opened_at: second * 1000, closed_at: second * 1000 + 10_000, from: second, duration: 10 },
    ]);
    // The player's window query, in milliseconds: only the second range closes after its start.
    const window = await json(
      `/cam/ranges.json?closed_at_gte=${second * 1000}&opened_at_lte=${Date.now()}&limit=1000&resolution=0`,
    );
    expect((window.body.ranges as unknown[]).length).toBe(1);
    const status = await fetch(`${server.url}/cam/recording_status.json`);
    expect(await status.json()).toEqual([
      {
        stream: 'cam',
        ranges: [
          { from, duration: 10 },
          { from: second, duration: 10 },
        ],
      },
    ]);
    expect((await json('/cam/ranges.json?closed_at_gte=soon')).status).toBe(400);
  });

  it('FROM.jpg is a JPEG of the stream size from the archive at that moment', async () => {
    for (const path of [`/cam/${from + 3}.jpg`, `/cam/${second + 1}-preview.jpg`]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      const jpeg = Buffer.from(await response.arrayBuffer());
      expect(jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      const file = join(server.dir, 'frame.jpg');
      await writeFile(file, jpeg);
      expect(probe(file).streams[0]).toMatchObject({ width: cam.width, height: cam.height });
    }
    // In the gap there is no picture: a 404 that says so.
    const gap = await json(`/cam/${from + 20}.jpg`);
    expect(gap.status).toBe(404);
    expect(gap.body.error).toMatch(/no archive at/);
  });

  it('timeshift and rewind are live playlists over the archive', async () => {
    const abs = await getText(`${server.url}/cam/timeshift_abs-${from + 4}.m3u8`);
    expect(abs.status).toBe(200);
    const live = strict(abs.text);
    expect(live.endlist).toBe(false);
    expect(live.segments[0]!.programDateTime?.getTime()).toBe((from + 4) * 1000);
    const rewind = strict((await getText(`${server.url}/cam/rewind-3600.m3u8`)).text);
    expect(rewind.segments).toHaveLength(10);
    const delay = Math.ceil(Date.now() / 1000) - (second + 6);
    const rel = strict((await getText(`${server.url}/cam/timeshift_rel-${delay}.m3u8`)).text);
    expect(rel.segments.at(-1)!.programDateTime ?? rel.segments.at(-1)!.uri).toBeTruthy();
    expect(rel.segments.at(-1)!.uri).toMatch(new RegExp(`^dvr/${(second + 6) * 1000 - 2000}-2000\\.ts$`));
  });

  it('index-FROM-DURATION.fmp4.m3u8 (the DVR player’s archive) parses strictly and its pieces decode with no error', async () => {
    const { status, text } = await getText(`${server.url}/cam/index-${from}-60.fmp4.m3u8`);
    expect(status).toBe(200);
    const playlist = strict(text);
    expect(playlist.version).toBe(7);
    expect(playlist.endlist).toBe(true);
    expect(playlist.segments).toHaveLength(10);
    expect(playlist.segments.every((s) => /^dvr\/\d{13}-\d+\.m4s$/.test(s.uri))).toBe(true);
    // An init at the start and a new one after the gap (another run, maybe another encoder).
    const first = playlist.segments[0]!;
    const afterGap = playlist.segments[5]!;
    expect(afterGap.discontinuity).toBe(true);
    expect(first.map?.uri).toBe(first.uri.replace(/\.m4s$/, '.init.mp4'));
    expect(afterGap.map?.uri).toBe(afterGap.uri.replace(/\.m4s$/, '.init.mp4'));
    const bytes = async (uri: string) => {
      const response = await fetch(`${server.url}/cam/${uri}`);
      expect([uri, response.status]).toEqual([uri, 200]);
      return Buffer.from(await response.arrayBuffer());
    };
    for (const [at, count] of [
      [0, 3],
      [5, 2],
    ] as const) {
      const run = playlist.segments.slice(at, at + count);
      const file = join(server.dir, `fmp4-run-${at}.mp4`);
      const parts = await Promise.all([run[0]!.map!.uri, ...run.map((s) => s.uri)].map(bytes));
      await writeFile(file, Buffer.concat(parts));
      const decode = spawnSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-'], { timeout: 60_000 });
      expect(decode.stderr.toString()).toBe('');
      expect(decode.status).toBe(0);
      expect(
        probe(file)
          .streams.map((s) => s.codec_name)
          .sort(),
      ).toEqual(['aac', 'h264']);
    }
    // The live twins over the archive name the same pieces.
    const abs = strict((await getText(`${server.url}/cam/timeshift_abs-${from + 4}.fmp4.m3u8`)).text);
    expect(abs.endlist).toBe(false);
    expect(abs.segments[0]!.map?.uri).toMatch(/^dvr\/\d{13}-\d+\.init\.mp4$/);
    const rewind = strict((await getText(`${server.url}/cam/rewind-3600.fmp4.m3u8`)).text);
    expect(rewind.segments).toHaveLength(10);
    expect((await json(`/cam/dvr/${from * 1000 + 1}-2000.m4s`)).status).toBe(404);
  });

  it('info.json says what the DVR player reads: live or not, tracks, the archive; ranges.json of a stream without DVR is empty', async () => {
    const cam = await json('/cam/info.json');
    expect(cam.status).toBe(200);
    expect(cam.body).toMatchObject({
      name: 'cam',
      stats: { status: 'stopped', alive: false, dvr_enabled: true },
      protocols: { mseld: false },
    });
    const dvrInfo = (cam.body.stats as { dvr_info: { from: number; ranges: unknown[]; depth: number } })
      .dvr_info;
    expect(dvrInfo.from).toBe(from);
    expect(dvrInfo.ranges).toHaveLength(2);
    expect(dvrInfo.depth).toBeGreaterThan(0);
    // The test:// source delivers within seconds: then it is running, alive, with its tracks.
    let nodvr: Record<string, unknown> = {};
    await waitFor(async () => {
      nodvr = (await json('/nodvr/info.json')).body;
      return (nodvr.stats as { alive?: boolean } | undefined)?.alive === true;
    }, 30_000);
    expect(nodvr).toMatchObject({ name: 'nodvr', stats: { status: 'running', dvr_enabled: false } });
    const tracks = (nodvr.stats as { media_info: { tracks: { content: string }[] } }).media_info.tracks;
    expect(tracks.map((t) => t.content)).toContain('video');
    expect(nodvr.stats).not.toHaveProperty('dvr_info');
    expect(await json('/nodvr/ranges.json?resolution=0')).toEqual({ status: 200, body: { ranges: [] } });
    expect((await json('/nobody/info.json')).status).toBe(404);
  });

  it('bad input answers 400 or 404 with a reason and touches nothing', async () => {
    const before = await readFile(join(server.dir, 'sluice.conf'), 'utf8');
    const cases: [string, number, RegExp][] = [
      [`/cam/archive-${from - 7200}-60.m3u8`, 404, /no archive of cam from .* the archive holds 2 range/],
      [`/cam/archive-${from}--60.m3u8`, 400, /duration must be positive/],
      [`/cam/archive-${from}-0.mp4`, 400, /duration must be positive/],
      [`/cam/archive-${from}x-60.ts`, 400, /malformed from/],
      [`/nodvr/archive-${from}-60.m3u8`, 404, /stream nodvr has no DVR archive/],
      [`/nodvr/recording_status.json`, 404, /has no DVR archive/],
      [`/cam/dvr/${from * 1000 + 1}-2000.ts`, 404, /not \(or no longer\) in the archive/],
    ];
    for (const [path, status, reason] of cases) {
      const answer = await json(path);
      expect([path, answer.status]).toEqual([path, status]);
      expect(answer.body.error).toMatch(reason);
    }
    // A name that leaves the archive, sent as it is (a URL string would have its dots resolved first).
    const escape = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const path = `/cam/../../etc/archive-${from}-60.ts`;
      httpRequest({ host: '127.0.0.1', port: server.port, path }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
        .on('error', reject)
        .end();
    });
    expect(escape.status).toBe(400);
    expect(JSON.parse(escape.body)).toEqual({ error: 'stream name "cam/../../etc" leaves the archive' });
    expect(await readFile(join(server.dir, 'sluice.conf'), 'utf8')).toBe(before);
  });

  it('a viewer without a token on a stream that requires auth is refused, as live is', async () => {
    const denied = await json(`/locked/archive-${from}-60.m3u8`);
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatch(/^access denied/);
    expect((await json('/locked/ranges.json')).status).toBe(403);
    expect((await json('/locked/info.json')).status).toBe(403);
    expect((await json('/locked/info.json?token=good')).status).toBe(200);
    expect((await fetch(`${server.url}/locked/${from + 1}.jpg`)).status).toBe(403);
    const allowed = await getText(`${server.url}/locked/archive-${from}-60.m3u8?token=good`);
    expect(allowed.status).toBe(200);
    const uri = strict(allowed.text).segments[0]!.uri;
    expect(uri).toMatch(/\?token=good$/);
    const segment = await fetch(`${server.url}/locked/${uri}`);
    expect(segment.status).toBe(200);
    expect(Buffer.from(await segment.arrayBuffer())[0]).toBe(0x47);
    expect((await fetch(`${server.url}/locked/${uri.replace('good', 'bad')}`)).status).toBe(403);
    // fMP4 HLS of the archive goes through the same gate.
    expect((await json(`/locked/index-${from}-60.fmp4.m3u8`)).status).toBe(403);
    const fmp4 = strict((await getText(`${server.url}/locked/index-${from}-60.fmp4.m3u8?token=good`)).text);
    expect(fmp4.segments[0]!.map!.uri).toMatch(/\.init\.mp4\?token=good$/);
    expect((await fetch(`${server.url}/locked/${fmp4.segments[0]!.map!.uri}`)).status).toBe(200);
    const bad = fmp4.segments[0]!.uri.replace('good', 'bad');
    expect((await fetch(`${server.url}/locked/${bad}`)).status).toBe(403);
  });
});
