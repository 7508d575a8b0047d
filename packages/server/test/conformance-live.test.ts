import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './harness.js';
import {
  captureTs,
  type ConformanceRig,
  type ConformanceSource,
  SOURCES,
  startRig,
} from './conformance-helpers.js';
import {
  type FetchedSegment,
  newObservation,
  type Observation,
  observeHls,
  peakSegmentBps,
  playlistRuleBreaks,
  readMediaList,
  strictParseError,
  variantBandwidth,
} from './conformance-hls-check.js';
import {
  keyframeDecode,
  mapPooled,
  probeSegment,
  type ProbedSegment,
  tablesFirst,
  timestampGaps,
  tsreportBreaks,
  tsRuleBreaks,
} from './conformance-ts-check.js';

/** How long every stream's playlists are followed: a minute, as a player would see it. */
const OBSERVE_MS = 60_000;
/** The sub-second stream is restarted once its playlist has changed this often. */
const RESTART_AFTER_VERSIONS = 30;
/** A restarted stream may answer 404 this long, until its first new segment. */
const RESTART_GRACE_MS = 15_000;
/** ffprobes at once over the ~400 segments seen: the server and its encoders are stopped by then. */
const PROBES_AT_ONCE = 3;

/**
 * Conformance of what Sluice serves, read by tools nobody here wrote: a strict HLS parser, ffprobe
 * on each segment alone, Debian's tsreport, and RFC 8216 / ETSI TR 101 290 rules checked by code.
 * One server plays seven sources (closed GOP, B-frames, open GOP, RTMP, 60 fps with sub-second
 * segments and a restart, audio only, video only) for a minute.
 */
describe('live conformance', () => {
  let rig: ConformanceRig;
  let stopping: Promise<void> | undefined;
  /** Stopped once the media is captured, or at the end if the capture failed. */
  const stopRig = () => (stopping ??= rig?.stop());
  const seen = new Map<string, Observation>();
  const streams = new Map<string, Buffer>();
  const probes = new Map<string, ProbedSegment>();
  const keyframes = new Map<string, Awaited<ReturnType<typeof keyframeDecode>>>();

  beforeAll(async () => {
    rig = await startRig(SOURCES);
    const playing = async (name: string) => (await fetch(`${rig.base(name)}/video.m3u8`)).ok;
    await waitFor(
      async () => (await Promise.all(SOURCES.map((s) => playing(s.name)))).every(Boolean),
      60_000,
    );
    const until = Date.now() + OBSERVE_MS;
    const restarted = { atMs: undefined as number | undefined };
    const excused = (name: string) => () =>
      name === 'fps60' && restarted.atMs !== undefined && Date.now() - restarted.atMs < RESTART_GRACE_MS;
    for (const s of SOURCES) seen.set(s.name, newObservation());
    const following = SOURCES.map((s) =>
      observeHls(rig.base(s.name), until, excused(s.name), seen.get(s.name)),
    );
    const capturing = SOURCES.map(async (s) =>
      streams.set(s.name, await captureTs(`${rig.base(s.name)}/mpegts`, 12_000)),
    );
    await waitFor(() => seen.get('fps60')!.versions.length >= RESTART_AFTER_VERSIONS, OBSERVE_MS);
    restarted.atMs = Date.now();
    const restart = await rig.server.api('/flussonic/api/stream_restart/fps60', { method: 'POST' });
    expect(restart.status).toBe(200);
    await Promise.all([...following, ...capturing]);
    // Everything is captured: the seven encoders stop before the segments are read, so the
    // ffprobes below (and the other test file running meanwhile) have the cores.
    await stopRig();
  }, OBSERVE_MS + 120_000);
  afterAll(() => stopRig());

  const probing = new Map<string, Promise<unknown>>();
  /** ffprobe of each segment of a source alone, a few at once, once for the tests that read them. */
  const probeAll = (source: ConformanceSource) => {
    if (!probing.has(source.name))
      probing.set(
        source.name,
        mapPooled([...seen.get(source.name)!.segments.values()], PROBES_AT_ONCE, async (segment) => {
          const key = `${source.name}/${segment.uri}`;
          probes.set(key, await probeSegment(segment.data));
          if (source.hasVideo) keyframes.set(key, await keyframeDecode(segment.data));
        }),
      );
    return probing.get(source.name)!;
  };
  const probe = (segment: FetchedSegment, name: string) => probes.get(`${name}/${segment.uri}`)!;
  const bySequence = (name: string) =>
    new Map([...seen.get(name)!.segments.values()].map((s) => [s.sequence, s]));

  describe.each(SOURCES)('$name', (source) => {
    it('every playlist version parses in a strict HLS parser, master included', () => {
      const { versions, masters } = seen.get(source.name)!;
      expect(versions.length).toBeGreaterThan(10);
      const errors = [...versions, ...masters.map((m) => m.master)]
        .map((text) => [strictParseError(text), text])
        .filter(([error]) => error);
      expect(errors.slice(0, 3)).toEqual([]);
    });

    it('keeps the RFC 8216 playlist rules over the minute', () => {
      expect(playlistRuleBreaks(seen.get(source.name)!.versions)).toEqual([]);
    });

    it('serves every listed segment, never changing one', () => {
      const { failures, changedUris } = seen.get(source.name)!;
      expect(failures.slice(0, 5)).toEqual([]);
      expect(changedUris).toEqual([]);
    });

    it('starts every segment with PAT/PMT and a decodable keyframe (ffprobe on the segment alone)', async () => {
      await probeAll(source);
      const problems: string[] = [];
      for (const segment of seen.get(source.name)!.segments.values()) {
        const tables = tablesFirst(segment.data);
        if (tables) problems.push(`${segment.uri}: ${tables}`);
        const probed = probe(segment, source.name);
        if (source.hasVideo && probed.firstVideoFrameKey !== true)
          problems.push(`${segment.uri}: first video frame is no keyframe`);
        if (source.hasVideo) {
          const alone = keyframes.get(`${source.name}/${segment.uri}`)!;
          if (alone.keyframes === 0 || alone.errors)
            problems.push(`${segment.uri}: keyframe alone: ${alone.keyframes} decoded ${alone.errors}`);
        }
        if (probed.errors && !source.leadingPictures)
          problems.push(`${segment.uri}: ${probed.errors.split('\n').slice(0, 2).join(' / ')}`);
      }
      expect(problems.slice(0, 5), `${problems.length} of ${seen.get(source.name)!.segments.size}`).toEqual(
        [],
      );
    });

    it('continues timestamps within half a frame across consecutive segments, but at discontinuities', async () => {
      await probeAll(source);
      const segments = bySequence(source.name);
      const gaps: string[] = [];
      let joins = 0;
      for (const [sequence, next] of segments) {
        const previous = segments.get(sequence - 1);
        if (!previous || next.discontinuity) continue;
        const [a, b] = [probe(previous, source.name), probe(next, source.name)];
        if (a.dts.video.length + a.dts.audio.length === 0) gaps.push(`${previous.uri}: no timestamps`);
        joins++;
        for (const gap of timestampGaps(a, b)) gaps.push(`${previous.uri} -> ${next.uri}: ${gap}`);
      }
      expect(joins).toBeGreaterThan(10);
      expect(gaps.slice(0, 5), `${gaps.length} of ${joins} joins`).toEqual([]);
    });

    it('passes tsreport and TR 101 290 checks over 20 s of consecutive segments', () => {
      const segments = bySequence(source.name);
      const sequences = [...segments.keys()].sort((a, b) => a - b);
      let run: FetchedSegment[] = [];
      for (const sequence of sequences) {
        const s = segments.get(sequence)!;
        if (run.length > 0 && (s.discontinuity || run.at(-1)!.sequence !== sequence - 1)) run = [];
        run.push(s);
        if (run.reduce((sum, x) => sum + x.durationS, 0) >= 20) break;
      }
      const data = Buffer.concat(run.map((s) => s.data));
      expect({ tsreport: tsreportBreaks(data), rules: tsRuleBreaks(data) }).toEqual({
        tsreport: [],
        rules: [],
      });
    });

    it('passes tsreport and TR 101 290 checks on /mpegts', () => {
      const data = streams.get(source.name)!;
      expect(data.length).toBeGreaterThan(100_000);
      expect({ tsreport: tsreportBreaks(data), rules: tsRuleBreaks(data) }).toEqual({
        tsreport: [],
        rules: [],
      });
    });

    it('advertises BANDWIDTH >= the peak of the served segments, the same while the playlist stays', () => {
      const { masters, segments } = seen.get(source.name)!;
      const sizeOf = (uri: string) => segments.get(uri)?.data.length;
      const byPlaylist = new Map<string, string[]>();
      const under: string[] = [];
      for (const { master, media } of masters) {
        const advertised = variantBandwidth(master);
        const peak = peakSegmentBps(readMediaList(media), sizeOf);
        if (peak !== undefined && advertised.peak < peak)
          under.push(`BANDWIDTH=${advertised.peak} under the peak ${Math.round(peak)}`);
        if (!(advertised.average! > 0 && advertised.average! <= advertised.peak))
          under.push(`AVERAGE-BANDWIDTH=${advertised.average} not within 1..BANDWIDTH=${advertised.peak}`);
        byPlaylist.set(media, [...(byPlaylist.get(media) ?? []), `${advertised.peak}/${advertised.average}`]);
      }
      expect(under.slice(0, 3), `${under.length} of ${masters.length} masters`).toEqual([]);
      const repeated = [...byPlaylist.values()].filter((figures) => figures.length > 1);
      expect(repeated.length).toBeGreaterThan(5);
      expect(repeated.filter((figures) => new Set(figures).size > 1)).toEqual([]);
    });
  });
});
