import { spawnSync } from 'node:child_process';
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDiscontinuity, PACKET_SIZE, pidOf } from '../src/media/ts-packet.js';
import { strictParseError } from './conformance-hls-check.js';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { adCounts, dateRanges, localTimeOfDay, makeAdFile, saveAdSchedules } from './ad-helpers.js';
import { getBytes, getText, modifyConfig, probeStreams, segmentUris, streamStats } from './media-helpers.js';

const stream = (name: string) =>
  `stream ${name} {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n`;
/** The test source's keyframe interval (engine/ffmpeg/args.ts: a keyframe every 2 s). */
const GOP_MS = 2000;
const SLOT_S = 4;

/**
 * Issue 25's insertion: a live test:// stream with a schedule whose slot starts a few seconds from
 * now gets the ad in its HLS output between two discontinuities, marked with EXT-X-DATERANGE,
 * then live again; a schedule whose only file is missing leaves its stream live.
 */
describe('ad insertion into a live stream', () => {
  let server: RunningServer;
  let slotStartMs: number;
  /** Every playlist text seen from before the slot until live came back, and each segment by URI. */
  const playlists: string[] = [];
  const segments = new Map<string, Buffer>();
  /** /live/mpegts read by one player from before the slot until live is back; DASH Period ids seen. */
  let mpegts: Buffer;
  const periods = new Set<string>();

  beforeAll(async () => {
    server = await startServer({ config: `${minimalConfig}${stream('live')}${stream('plain')}` });
    const vodDir = join(server.dir, 'vod');
    await makeAdFile(join(vodDir, 'spots'), 'cola.mp4', 2);
    // Saved while it exists (a schedule naming a missing file is refused), deleted before its slot.
    const gone = await makeAdFile(join(vodDir, 'spots'), 'gone.mp4', 1);
    await modifyConfig(server, { vods: { ads: { prefix: 'ads', urls: [{ url: vodDir }] } } });
    const far = localTimeOfDay(Date.now() + 3 * 3600_000);
    const schedules = (from: string) => [
      {
        name: 'brk',
        slots: [{ from, duration: SLOT_S }],
        files: [{ name: 'ads/spots/cola.mp4', weight: 1 }],
      },
      {
        name: 'broken',
        slots: [{ from, duration: SLOT_S }],
        files: [{ name: 'ads/spots/gone.mp4', weight: 1 }],
      },
    ];
    await saveAdSchedules(server, schedules(far));
    await modifyConfig(server, {
      streams: { live: { ad_schedule: 'brk' }, plain: { ad_schedule: 'broken' } },
    });
    await waitFor(
      async () => (await streamStats(server, 'live')).alive && (await streamStats(server, 'plain')).alive,
      30_000,
    );
    // The ad is conformed to the stream's size and codecs ahead of the slot (ads/conform.ts cache).
    await waitFor(
      async () =>
        (await readdir(join(server.dir, 'ad-cache')).catch(() => [])).some((f) => f.endsWith('.ts')),
      30_000,
    );
    // A TS player and a DASH player are on before the slot (the DASH packager starts on request).
    const ts = readContinuous(`${server.url}/live/mpegts`);
    const notePeriods = async () => {
      const { text } = await getText(`${server.url}/live/index.mpd`);
      for (const m of text.matchAll(/<Period id="([^"]+)"/g)) periods.add(m[1]!);
      return periods.size;
    };
    await waitFor(async () => (await notePeriods()) > 0, 30_000);
    slotStartMs = Math.ceil((Date.now() + 4000) / 1000) * 1000;
    await saveAdSchedules(server, schedules(localTimeOfDay(slotStartMs)));
    await unlink(gone);
    // A player's view of the playlist until the break is over and live is back (DATERANGE X-CUE-IN).
    await waitFor(
      async () => {
        const { text } = await getText(`${server.url}/live/video.m3u8`);
        if (playlists.at(-1) !== text) playlists.push(text);
        for (const uri of segmentUris(text))
          if (!segments.has(uri)) segments.set(uri, await getBytes(`${server.url}/live/${uri}`));
        await notePeriods();
        return dateRanges(text).some((d) => d['X-CUE-IN'] === 'YES');
      },
      40_000,
      300,
    );
    // Live back in the TS (a second of it) and in the MPD (its own Period after the ad's).
    const atCueIn = ts.bytes;
    await waitFor(async () => (await notePeriods()) >= 3 && ts.bytes > atCueIn + 40_000, 30_000, 300);
    mpegts = await ts.stop();
  }, 120_000);
  afterAll(() => server?.cleanup());

  /** The first playlist seen with this cue, and the cue's attributes. */
  const seenWith = (cue: string) => {
    const text = playlists.find((t) => t.includes(cue))!;
    return { text, attributes: dateRanges(text).find((d) => d[cue])! };
  };

  it('marks the slot with DISCONTINUITY and a DATERANGE cue out and in, in a playlist a strict parser takes', () => {
    const out = seenWith('X-CUE-OUT');
    const back = seenWith('X-CUE-IN');
    expect(out.attributes).toMatchObject({ ID: `ad-${slotStartMs}`, 'PLANNED-DURATION': String(SLOT_S) });
    expect(back.attributes).toMatchObject({
      ID: out.attributes.ID,
      'START-DATE': out.attributes['START-DATE'],
    });
    expect(Number(back.attributes.DURATION)).toBeGreaterThan(SLOT_S - 1);
    // Both switches open a new timeline: the cue's segment starts with DISCONTINUITY.
    for (const [cue, { text }] of [
      ['X-CUE-OUT', out],
      ['X-CUE-IN', back],
    ] as const) {
      const lines = text.split('\n');
      const at = lines.findIndex((l) => l.includes(cue));
      expect(lines.slice(at - 3, at).includes('#EXT-X-DISCONTINUITY'), `${cue} in:\n${text}`).toBe(true);
    }
    for (const text of playlists) expect(strictParseError(text), text).toBeUndefined();
  });

  it('switches at the first keyframe after the slot start: at most one GOP late', () => {
    const lateMs = Date.parse(seenWith('X-CUE-OUT').attributes['START-DATE']!) - slotStartMs;
    expect(lateMs).toBeGreaterThanOrEqual(-100);
    expect(lateMs).toBeLessThanOrEqual(GOP_MS);
  });

  it('plays the ad conformed to the live size, and ffmpeg decodes live → ad → live without an error', () => {
    const lines = seenWith('X-CUE-OUT').text.split('\n');
    const adUri = lines
      .slice(lines.findIndex((l) => l.includes('X-CUE-OUT')))
      .find((l) => !l.startsWith('#'))!;
    expect(probeStreams(segments.get(adUri)!).find((s) => s.codec_name === 'h264')?.width).toBe(320);
    // Every segment seen, in order: live, the ad, live again.
    const all = Buffer.concat([...segments.values()]);
    const decoded = spawnSync('ffmpeg', ['-v', 'error', '-i', 'pipe:0', '-f', 'null', '-'], {
      input: all,
      timeout: 30_000,
    });
    expect(decoded.status, decoded.stderr.toString()).toBe(0);
    expect(decoded.stderr.toString()).not.toMatch(/error while decoding|Invalid data/i);
  });

  it('switches /mpegts with the discontinuity indicator at both switches, decoded by ffmpeg; DASH opens a Period at the ad and back', () => {
    // Each switch flags the video PID; the ad's timestamps start over (its file's), well back of live's.
    const video = probeStreams(mpegts).find((s) => s.codec_name === 'h264') as { width?: number; id: string };
    expect(video.width).toBe(320);
    expect(discontinuityFlags(mpegts, Number(video.id))).toBeGreaterThanOrEqual(2);
    const probe = ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time'];
    const pts = spawnSync('ffprobe', [...probe, '-of', 'csv=p=0', '-i', 'pipe:0'], {
      input: mpegts,
      timeout: 30_000,
    })
      .stdout.toString()
      .split('\n')
      .map((line) => parseFloat(line))
      .filter((t) => Number.isFinite(t));
    expect(pts.length).toBeGreaterThan(100);
    const jumps = pts.slice(1).filter((t, i) => Math.abs(t - pts[i]!) > 1).length;
    expect(jumps, 'live -> ad -> live: two timestamp jumps').toBeGreaterThanOrEqual(2);
    const decoded = spawnSync('ffmpeg', ['-v', 'error', '-i', 'pipe:0', '-f', 'null', '-'], {
      input: mpegts,
      timeout: 30_000,
    });
    expect(decoded.status, decoded.stderr.toString()).toBe(0);
    expect(decoded.stderr.toString()).not.toMatch(/error while decoding|Invalid data|non-existing PPS/i);
    expect(periods.size).toBeGreaterThanOrEqual(3);
  });

  it('counts the show and the view of the ad; a missing file leaves its stream live with nothing counted', async () => {
    const counts = await waitFor(async () => {
      const c = await adCounts(server);
      return c.live?.some((f) => f.view_count > 0) ? c : undefined;
    });
    expect(counts.live).toEqual([
      expect.objectContaining({ name: 'ads/spots/cola.mp4', show_count: expect.any(Number), view_count: 1 }),
    ]);
    expect(counts.live![0]!.show_count).toBeGreaterThanOrEqual(1);
    expect(counts.plain ?? []).toEqual([]);
    const plain = (await getText(`${server.url}/plain/video.m3u8`)).text;
    expect(plain).not.toContain('#EXT-X-DISCONTINUITY');
    expect(plain).not.toContain('#EXT-X-DATERANGE');
    const stats = await waitFor(async () => {
      const now = await streamStats(server, 'plain');
      return now.ad_error ? now : undefined;
    });
    expect(stats.alive).toBe(true);
    // The skipped file is named in the stream's stats (and its log), the stream not in error.
    expect(stats.ad_error).toMatch(/^ad file ads\/spots\/gone\.mp4 is missing/);
    expect(stats.source_error).toBeUndefined();
  });
});

/** Reads a continuous HTTP stream until stopped: what came so far, and its length as it grows. */
function readContinuous(url: string): { readonly bytes: number; stop: () => Promise<Buffer> } {
  const abort = new AbortController();
  const chunks: Buffer[] = [];
  let bytes = 0;
  const done = fetch(url, { signal: abort.signal })
    .then(async (response) => {
      for await (const chunk of response.body!) {
        chunks.push(Buffer.from(chunk as Uint8Array));
        bytes += (chunk as Uint8Array).length;
      }
    })
    .catch(() => undefined);
  return {
    get bytes() {
      return bytes;
    },
    stop: async () => {
      abort.abort();
      await done;
      return Buffer.concat(chunks);
    },
  };
}

/** Packets of `pid` whose adaptation field has the discontinuity_indicator set. */
function discontinuityFlags(ts: Buffer, pid: number): number {
  let count = 0;
  for (let o = ts.indexOf(0x47); o + PACKET_SIZE <= ts.length; o += PACKET_SIZE)
    if (pidOf(ts, o) === pid && isDiscontinuity(ts, o)) count++;
  return count;
}
