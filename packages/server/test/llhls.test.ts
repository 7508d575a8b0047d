import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseHls, setOptions as setHlsOptions } from 'hls-parser';
import type { MasterPlaylist, MediaPlaylist } from 'hls-parser/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getBytes, getText, modifyConfig } from './media-helpers.js';

/** The playlist as a strict parser reads it (LL-HLS tags included); throws with its reason. */
function strict<T extends MasterPlaylist | MediaPlaylist>(text: string): T {
  setHlsOptions({ strictMode: true, silent: true });
  return parseHls(text) as T;
}

const tag = (text: string, name: string): string | undefined =>
  text
    .split('\n')
    .find((l) => l.startsWith(`#${name}:`))
    ?.slice(name.length + 2);
const attr = (list: string | undefined, key: string): string | undefined =>
  new RegExp(`(?:^|,)${key}=("[^"]*"|[^,]*)`).exec(list ?? '')?.[1]?.replace(/^"|"$/g, '');

/** Parts listed, in order, with the media sequence number of the segment each belongs to. */
function partsOf(text: string): { msn: number; uri: string; duration: number; independent: boolean }[] {
  let msn = Number(tag(text, 'EXT-X-MEDIA-SEQUENCE'));
  const out = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#EXT-X-PART:'))
      out.push({
        msn,
        uri: attr(line.slice(12), 'URI')!,
        duration: Number(attr(line.slice(12), 'DURATION')),
        independent: attr(line.slice(12), 'INDEPENDENT') === 'YES',
      });
    else if (line !== '' && !line.startsWith('#')) msn++;
  }
  return out;
}

/** The frames ffprobe reads from an init and fragments put together. */
function probeFrames(dir: string, bytes: Buffer): { codec: string; frames: number } {
  const file = join(dir, `probe-${Date.now()}.mp4`);
  writeFileSync(file, bytes);
  const out = spawnSync(
    'ffprobe',
    [
      '-v',
      'error',
      '-count_frames',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=codec_name,nb_read_frames',
      '-of',
      'json',
      file,
    ],
    { encoding: 'utf8' },
  );
  const stream = JSON.parse(out.stdout).streams?.[0] ?? {};
  return { codec: stream.codec_name, frames: Number(stream.nb_read_frames ?? 0) };
}

/**
 * Low-Latency HLS (RFC 8216bis) of a test:// stream with 2 s segments: the playlist's LL tags as a
 * strict parser reads them, parts that decode, blocking playlist reload and preload-hinted parts
 * held until they are cut; and an HEVC source (libx265) in fMP4 HLS and LL-HLS.
 */
describe('LL-HLS', () => {
  let server: RunningServer;
  const dir = mkdtempSync(join(tmpdir(), 'llhls-'));
  const ll = (path: string) => `${server.url}/ll/${path}`;

  beforeAll(async () => {
    const hevc = join(dir, 'hevc.ts');
    const made = spawnSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x180:rate=25',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000',
      '-t',
      '4',
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-x265-params',
      'keyint=25:min-keyint=25:log-level=error',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-f',
      'mpegts',
      hevc,
    ]);
    if (made.status !== 0) throw new Error(`libx265 clip: ${made.stderr}`);
    server = await startServer({
      config:
        `${minimalConfig}stream ll {\n  url test://?size=320x180&bitrate=300;\n  static true;\n  segment_duration 2000;\n}\n` +
        `stream hevc {\n  url file://${hevc};\n  static true;\n  segment_duration 1000;\n}\n` +
        // 1 s segments, 10 listed: a window longer than CAN-SKIP-UNTIL (6 target durations).
        `stream skip {\n  url test://?size=160x90&bitrate=100;\n  static true;\n  segment_duration 1000;\n  segment_count 10;\n}\n`,
    });
    await waitFor(async () => (await getText(ll('video.ll.m3u8'))).status === 200, 30_000);
  });
  afterAll(async () => {
    await server?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists parts of at most PART-TARGET, independent at keyframes, with blocking reload and a preload hint', async () => {
    const master = strict<MasterPlaylist>((await getText(ll('index.ll.m3u8'))).text);
    expect(master.variants[0]?.uri).toBe('video.ll.m3u8');
    expect(master.variants[0]?.codecs).toMatch(/^avc1\.[0-9a-f]{6},mp4a\.40\.2$/);
    // Wait for a playlist holding a whole segment and the parts of the next.
    const text = await waitFor(async () => {
      const t = (await getText(ll('video.ll.m3u8'))).text;
      return t.includes('#EXTINF:') && partsOf(t).length >= 6 ? t : undefined;
    }, 30_000);
    const media = strict<MediaPlaylist>(text);
    expect(media.targetDuration).toBe(2);
    expect(tag(text, 'EXT-X-VERSION')).toBe('9');
    const target = Number(attr(tag(text, 'EXT-X-PART-INF'), 'PART-TARGET'));
    expect(target).toBe(0.5);
    const control = tag(text, 'EXT-X-SERVER-CONTROL');
    expect(attr(control, 'CAN-BLOCK-RELOAD')).toBe('YES');
    expect(Number(attr(control, 'PART-HOLD-BACK'))).toBeGreaterThanOrEqual(3 * target);
    const parts = partsOf(text);
    for (const part of parts) expect(part.duration).toBeLessThanOrEqual(target);
    // Each segment's first part starts at its keyframe (test:// has one every 2 s).
    const firsts = parts.filter((p, i) => i === 0 || parts[i - 1]!.msn !== p.msn);
    expect(firsts.every((p) => p.independent)).toBe(true);
    // A whole segment's EXTINF is the sum of its parts.
    const whole = media.segments.find((s) => s.mediaSequenceNumber === parts[0]!.msn)!;
    const sum = parts.filter((p) => p.msn === whole.mediaSequenceNumber).reduce((n, p) => n + p.duration, 0);
    expect(whole.duration).toBeCloseTo(sum, 3);
    expect(attr(tag(text, 'EXT-X-PRELOAD-HINT'), 'TYPE')).toBe('PART');
    expect(tag(text, 'EXT-X-PROGRAM-DATE-TIME')).toMatch(/^\d{4}-\d\d-\d\dT/);

    // The init and one segment's parts decode as its frames: 2 s at 25 fps.
    const init = attr(tag(text, 'EXT-X-MAP'), 'URI')!;
    const fragments = await Promise.all(
      parts.filter((p) => p.msn === whole.mediaSequenceNumber).map((p) => getBytes(ll(p.uri))),
    );
    const decoded = probeFrames(dir, Buffer.concat([await getBytes(ll(init)), ...fragments]));
    expect(decoded).toEqual({ codec: 'h264', frames: Math.round(sum * 25) });
    // The whole segment is its parts back to back.
    const segment = await getBytes(ll(whole.uri));
    expect(probeFrames(dir, Buffer.concat([await getBytes(ll(init)), segment])).frames).toBe(decoded.frames);
  });

  it('holds a playlist request for the next part until it is cut (_HLS_msn/_HLS_part), and the hinted part', async () => {
    const text = (await getText(ll('video.ll.m3u8'))).text;
    const parts = partsOf(text);
    const last = parts[parts.length - 1]!;
    const lastMsn = last.msn;
    const nextPart = parts.filter((p) => p.msn === lastMsn).length;
    const hint = attr(tag(text, 'EXT-X-PRELOAD-HINT'), 'URI')!;
    expect(parts.some((p) => p.uri === hint)).toBe(false);
    const started = Date.now();
    const [blocked, hinted] = await Promise.all([
      getText(ll(`video.ll.m3u8?_HLS_msn=${lastMsn}&_HLS_part=${nextPart}`)),
      getBytes(ll(hint)),
    ]);
    const waitedMs = Date.now() - started;
    expect(blocked.status).toBe(200);
    // The answer holds the part asked for: the hinted one, listed now (in this segment or as the next's first).
    const after = partsOf(blocked.text);
    expect(after.some((p) => p.uri === hint)).toBe(true);
    expect(after.length).toBeGreaterThan(0);
    // The hinted part came as a CMAF chunk once cut (a request that did not wait would have got 404).
    expect(hinted.subarray(4, 8).toString()).toBe('styp');
    expect(waitedMs).toBeLessThan(6_000);
  });

  it('answers bad delivery directives 400: part without msn, msn far ahead, not a number, unknown skip', async () => {
    const msn = Number(tag((await getText(ll('video.ll.m3u8'))).text, 'EXT-X-MEDIA-SEQUENCE'));
    for (const query of [
      '_HLS_part=1',
      `_HLS_msn=${msn + 100}`,
      '_HLS_msn=1e3',
      '_HLS_msn=-1',
      '_HLS_msn=1&_HLS_msn=2',
      '_HLS_skip=NO',
    ])
      expect((await getText(ll(`video.ll.m3u8?${query}`))).status, query).toBe(400);
    expect((await getText(ll('ll-part-1.m4s'))).status).toBe(404);
  });

  it('answers _HLS_skip=YES with a delta update: the whole segments past CAN-SKIP-UNTIL as one EXT-X-SKIP', async () => {
    const url = `${server.url}/skip/video.ll.m3u8`;
    const full = await waitFor(async () => {
      const t = (await getText(url)).text;
      return (t.match(/^#EXTINF:/gm) ?? []).length >= 9 ? t : undefined;
    }, 60_000);
    expect(attr(tag(full, 'EXT-X-SERVER-CONTROL'), 'CAN-SKIP-UNTIL')).toBe('6.0');
    expect(full).not.toContain('#EXT-X-SKIP');
    const msn = Number(tag(full, 'EXT-X-MEDIA-SEQUENCE'));
    const delta = (await getText(`${url}?_HLS_skip=YES`)).text;
    const skipped = Number(attr(tag(delta, 'EXT-X-SKIP'), 'SKIPPED-SEGMENTS'));
    expect(skipped).toBeGreaterThanOrEqual(2);
    const deltaMsn = Number(tag(delta, 'EXT-X-MEDIA-SEQUENCE'));
    expect(deltaMsn).toBeGreaterThanOrEqual(msn);
    // The first segment listed after the skip is the one that follows the skipped ones, and what
    // is left spans at least CAN-SKIP-UNTIL.
    const firstUri = delta.split('\n').find((l) => /^ll-\d+\.m4s$/.test(l));
    expect(firstUri).toBe(`ll-${deltaMsn + skipped}.m4s`);
    const left = [...delta.matchAll(/^#EXTINF:([\d.]+),/gm)].reduce((n, m) => n + Number(m[1]), 0);
    expect(left).toBeGreaterThanOrEqual(5);
    expect(delta.length).toBeLessThan(full.length);
    // v2 (date ranges too: there are none here) is the same delta update.
    expect((await getText(`${url}?_HLS_skip=v2`)).text).toContain('#EXT-X-SKIP:SKIPPED-SEGMENTS=');
  });

  it('plays an HEVC source (libx265) as fMP4 HLS and LL-HLS, hvc1 in the init, frames decoding', async () => {
    const fmp4 = await waitFor(async () => {
      const r = await getText(`${server.url}/hevc/video.fmp4.m3u8`);
      return r.status === 200 ? r.text : undefined;
    }, 30_000);
    const media = strict<MediaPlaylist>(fmp4);
    const init = await getBytes(`${server.url}/hevc/${media.segments[0]!.map!.uri}`);
    expect(init.includes(Buffer.from('hvc1'))).toBe(true);
    const fragment = await getBytes(`${server.url}/hevc/${media.segments[0]!.uri}`);
    expect(probeFrames(dir, Buffer.concat([init, fragment])).codec).toBe('hevc');
    const master = strict<MasterPlaylist>((await getText(`${server.url}/hevc/index.ll.m3u8`)).text);
    expect(master.variants[0]?.codecs).toMatch(/^hvc1\./);
    const text = (await getText(`${server.url}/hevc/video.ll.m3u8`)).text;
    const part = partsOf(text).find((p) => p.independent)!;
    const llInit = await getBytes(`${server.url}/hevc/${attr(tag(text, 'EXT-X-MAP'), 'URI')}`);
    const decoded = probeFrames(
      dir,
      Buffer.concat([llInit, await getBytes(`${server.url}/hevc/${part.uri}`)]),
    );
    expect(decoded.codec).toBe('hevc');
    expect(decoded.frames).toBe(Math.round(part.duration * 25));
  });

  it('follows the hls protocol switch: off, LL-HLS and fMP4 HLS are refused 403', async () => {
    await modifyConfig(server, { streams: { hevc: { protocols: { hls: false } } } });
    await waitFor(async () => (await getText(`${server.url}/hevc/index.ll.m3u8`)).status === 403);
    expect((await getText(`${server.url}/hevc/index.fmp4.m3u8`)).status).toBe(403);
    await modifyConfig(server, { streams: { hevc: { protocols: null } } });
    await waitFor(async () => (await getText(`${server.url}/hevc/index.ll.m3u8`)).status === 200);
  });
});
