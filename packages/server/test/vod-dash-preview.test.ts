import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer } from './harness.js';
import { getBytes, getText } from './media-helpers.js';
import { makeMovie, remux } from './vod-playback-fixture.js';

/**
 * DASH (index.mpd and its pieces) and preview.jpg of VOD files (issue 16): an MP4 (the MP4 reader),
 * the same in MKV and MPEG-TS (the ffmpeg reader) and one with two audio tracks. What a player
 * would notice: an MPD that does not add up to the file, pieces that do not decode back to back,
 * a preview that is no picture, an error that does not say which file.
 */
describe('VOD DASH and preview.jpg', () => {
  let server: RunningServer;
  let media: string;

  beforeAll(async () => {
    media = await mkdtemp(join(tmpdir(), 'sluice-vod-dash-'));
    makeMovie(join(media, 'movie.mp4'), 10);
    makeMovie(join(media, 'two audio.mp4'), 6, 2);
    remux(join(media, 'movie.mp4'), join(media, 'clip.mkv'));
    remux(join(media, 'movie.mp4'), join(media, 'clip.ts'));
    await writeFile(join(media, 'broken.mp4'), randomBytes(4096));
    await writeFile(join(media, 'broken.mkv'), randomBytes(4096));
    server = await startServer({ config: `${minimalConfig}file vod {\n  path ${media};\n}\n` });
  }, 120_000);
  afterAll(async () => {
    await server?.cleanup();
    await rm(media, { recursive: true, force: true });
  });

  const url = (path: string) => `${server.url}/vod/${path}`;

  for (const file of ['movie.mp4', 'clip.mkv', 'clip.ts']) {
    it(`${file}: a static MPD whose timeline adds up to the file, each track's init + fragments decode in a row`, async () => {
      const response = await fetch(url(`${file}/index.mpd`));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/dash+xml');
      const mpd = await response.text();
      expect(mpd).toContain('type="static"');
      const duration = Number(/mediaPresentationDuration="PT([\d.]+)S"/.exec(mpd)![1]);
      expect(duration).toBeCloseTo(10, 0);
      const sets = adaptationSets(mpd);
      expect(sets.map((s) => s.contentType)).toEqual(['video', 'audio']);
      for (const set of sets) {
        // The timeline covers the file: first segment at 0, lengths adding up to its duration.
        expect(set.starts[0]).toBe(set.presentationTimeOffset);
        const end = set.starts.at(-1)! + set.durations.at(-1)!;
        expect((end - set.presentationTimeOffset) / set.timescale).toBeCloseTo(duration, 2);
        const pieces = [await getBytes(url(`${file}/${set.init}`))];
        for (let n = 0; n < set.starts.length; n++)
          pieces.push(await getBytes(url(`${file}/${set.media.replace('$Number$', String(n))}`)));
        const decoded = decode(Buffer.concat(pieces), set.contentType);
        expect(decoded.errors).toBe('');
        if (set.contentType === 'video') expect(decoded.frames).toBe(250);
        // Audio: 10 s of 48 kHz AAC is 469 frames of 1024 samples.
        else expect(decoded.frames).toBeGreaterThanOrEqual(468);
      }
    }, 60_000);
  }

  it('lists each audio track of a file with two as its own AdaptationSet with its language', async () => {
    const mpd = (await getText(url('two%20audio.mp4/index.mpd'))).text;
    const sets = adaptationSets(mpd);
    expect(sets.map((s) => [s.contentType, s.lang])).toEqual([
      ['video', undefined],
      ['audio', 'eng'],
      ['audio', 'fra'],
    ]);
    const [, , fra] = sets;
    const init = await getBytes(url(`two%20audio.mp4/${fra!.init}`));
    const first = await getBytes(url(`two%20audio.mp4/${fra!.media.replace('$Number$', '0')}`));
    expect(decode(Buffer.concat([init, first]), 'audio').errors).toBe('');
  }, 60_000);

  it('answers a piece the file does not have 404, and a damaged file 422 naming it, not the server path', async () => {
    const missing = await fetch(url('movie.mp4/seg-1-99.m4s'));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: string }).error).toMatch(/vod\/movie\.mp4.*segment 99/);
    expect((await fetch(url('movie.mp4/init-7.m4s'))).status).toBe(404);
    for (const broken of ['broken.mp4', 'broken.mkv']) {
      const response = await fetch(url(`${broken}/index.mpd`));
      expect(response.status).toBe(422);
      const { error } = (await response.json()) as { error: string };
      expect(error).toContain(`vod/${broken}`);
      expect(error).not.toContain(media);
    }
  });

  it('preview.jpg: a JPEG of the picture at ?t= (default 10 % in), another picture at another moment', async () => {
    for (const file of ['movie.mp4', 'clip.mkv', 'clip.ts']) {
      const response = await fetch(url(`${file}/preview.jpg`));
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      const jpeg = Buffer.from(await response.arrayBuffer());
      expect(jpeg.subarray(0, 2).toString('hex')).toBe('ffd8');
      expect(pictureSize(jpeg)).toEqual({ width: 320, height: 180 });
    }
    const at1 = await getBytes(url('movie.mp4/preview.jpg?t=1'));
    const at8 = await getBytes(url('movie.mp4/preview.jpg?t=8'));
    expect(at1.equals(at8)).toBe(false);
    // The last moment of the file still has a picture.
    expect((await fetch(url('movie.mp4/preview.jpg?t=10'))).status).toBe(200);
  }, 60_000);

  it('preview.jpg refuses a moment outside the file 400 and a damaged file 422, naming it', async () => {
    for (const t of ['-1', '11', 'soon']) {
      const response = await fetch(url(`movie.mp4/preview.jpg?t=${t}`));
      expect(response.status, t).toBe(400);
      expect(((await response.json()) as { error: string }).error).toContain('vod/movie.mp4');
    }
    const broken = await fetch(url('broken.mkv/preview.jpg'));
    expect(broken.status).toBe(422);
    expect(((await broken.json()) as { error: string }).error).toContain('vod/broken.mkv');
  });
});

interface AdaptationSet {
  contentType: string;
  lang: string | undefined;
  timescale: number;
  presentationTimeOffset: number;
  init: string;
  media: string;
  starts: number[];
  durations: number[];
}

/** The AdaptationSets of an MPD, with their SegmentTimeline expanded (S@r repeats). */
function adaptationSets(mpd: string): AdaptationSet[] {
  const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
  return mpd
    .split('<AdaptationSet')
    .slice(1)
    .map((set) => {
      const head = set.slice(0, set.indexOf('>'));
      const template = /<SegmentTemplate\b[^>]*>/.exec(set)![0];
      const starts: number[] = [];
      const durations: number[] = [];
      for (const [s] of set.matchAll(/<S\b[^>]*>/g)) {
        let t = Number(attr(s, 't') ?? starts.at(-1)! + durations.at(-1)!);
        const d = Number(attr(s, 'd'));
        for (let r = 0; r <= Number(attr(s, 'r') ?? 0); r++, t += d) {
          starts.push(t);
          durations.push(d);
        }
      }
      return {
        contentType: attr(head, 'contentType')!,
        lang: attr(head, 'lang'),
        timescale: Number(attr(template, 'timescale')),
        presentationTimeOffset: Number(attr(template, 'presentationTimeOffset') ?? 0),
        init: attr(template, 'initialization')!.replaceAll('&amp;', '&'),
        media: attr(template, 'media')!.replaceAll('&amp;', '&'),
        starts,
        durations,
      };
    });
}

/** ffmpeg decoding fMP4 bytes: its error output and how many frames of the kind it decoded. */
function decode(bytes: Buffer, kind: string): { errors: string; frames: number } {
  const stream = kind === 'video' ? 'v:0' : 'a:0';
  const args = ['-v', 'error', '-i', 'pipe:0', '-map', `0:${stream}`, '-f', 'framecrc', '-'];
  const result = spawnSync('ffmpeg', args, { input: bytes, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
  const frames = result.stdout
    .toString()
    .split('\n')
    .filter((line) => line && !line.startsWith('#')).length;
  return {
    errors: `${result.stderr.toString()}${result.status === 0 ? '' : `exit ${result.status}`}`,
    frames,
  };
}

/** Width and height of a JPEG from its SOF0 marker. */
function pictureSize(jpeg: Buffer): { width: number; height: number } | undefined {
  for (let o = 2; o + 9 < jpeg.length;) {
    if (jpeg[o] !== 0xff) return undefined;
    const marker = jpeg[o + 1]!;
    if (marker >= 0xc0 && marker <= 0xc2)
      return { height: jpeg.readUInt16BE(o + 5), width: jpeg.readUInt16BE(o + 7) };
    o += 2 + jpeg.readUInt16BE(o + 2);
  }
  return undefined;
}
