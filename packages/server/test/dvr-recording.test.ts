import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bytesOf,
  type DvrStats,
  dvrStats,
  filesUnder,
  recordedSegments,
  type RecordedSegment,
} from './dvr-helpers.js';
import { EventsClient } from './events-client.js';
import { basicAuth, freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { rtmpPublisher } from './media-helpers.js';

/**
 * Recording (issue 15): a stream with `dvr ROOT 1h;` writes what its live segmenter cuts under
 * ROOT/NAME, shows dvr_info in its stats, and keeps its archive through a source outage, a
 * restart and a kill -9 (each one visible gap).
 */
describe('DVR recording', () => {
  let server: RunningServer;
  let rtmp: string;
  let rtmpBase: string;
  let root: string;
  let streamDir: string;
  let publisher: { stop: () => Promise<void> } | undefined;

  beforeAll(async () => {
    const port = await freePort();
    rtmpBase = `rtmp://127.0.0.1:${port}`;
    rtmp = `${rtmpBase}/static/cam`;
    const dir = await mkdtemp(join(tmpdir(), 'sluice-dvr-'));
    root = join(dir, 'archive');
    streamDir = join(root, 'cam');
    server = await startServer({
      dir,
      config:
        `${minimalConfig}rtmp ${port};\n` +
        `live live {\n  dvr ${root} 1h;\n}\n` +
        `stream cam {\n  publish_enabled true;\n  static true;\n  segment_duration 1;\n  dvr ${root} 1h;\n}\n`,
    });
  });
  afterAll(async () => {
    await publisher?.stop();
    await server?.cleanup();
  });

  const publish = () => {
    publisher = rtmpPublisher(rtmp);
  };
  const atLeast = async (count: number, after = 0) =>
    waitFor(async () => {
      const segments = await recordedSegments(streamDir);
      return segments.filter((s) => s.startMs >= after).length >= count ? segments : undefined;
    }, 30_000);
  /** Waits (polling the files) until no segment has ended for `ms`: the source is really gone. */
  const silentFor = async (ms: number) =>
    waitFor(async () => {
      const last = (await recordedSegments(streamDir)).at(-1);
      return last && Date.now() - (last.startMs + last.durationMs) > ms;
    }, 30_000);
  const rangesOf = async () => (await dvrStats(server, 'cam')).dvr_info?.ranges ?? [];
  const contiguous = (segments: RecordedSegment[]) =>
    segments.every(
      (s, i) =>
        i === 0 ||
        s.discontinuity ||
        Math.abs(s.startMs - (segments[i - 1]!.startMs + segments[i - 1]!.durationMs)) <= 1000,
    );

  it('writes the segments under ROOT/NAME in the layout and shows dvr_info in the stats', async () => {
    publish();
    const segments = await atLeast(3);
    expect(segments[0]!.discontinuity).toBe(true);
    expect(contiguous(segments)).toBe(true);
    for (const s of segments) expect(s.durationMs).toBeGreaterThan(500);
    const stats = await waitFor(async () => {
      const s = await dvrStats(server, 'cam');
      return (s.dvr_info?.duration ?? 0) >= 2 ? s : undefined;
    });
    expect(stats.dvr_enabled).toBe(true);
    const info = stats.dvr_info!;
    expect(info.from).toBe(Math.floor(segments[0]!.startMs / 1000));
    expect(info.ranges).toHaveLength(1);
    expect(info.disk_size).toBeGreaterThan(10_000);
    expect(Math.abs(info.depth! - (Date.now() / 1000 - info.from!))).toBeLessThan(5);
  });

  it('keeps recording across a source outage: the gap splits the archive into two ranges', async () => {
    await publisher!.stop();
    await silentFor(2500);
    const resumeAt = Date.now();
    publish();
    const segments = await atLeast(2, resumeAt);
    const ranges = await waitFor(async () => ((await rangesOf()).length === 2 ? rangesOf() : undefined));
    expect(ranges).toHaveLength(2);
    // The first segment after the outage says it does not continue the one before.
    expect(segments.find((s) => s.startMs >= resumeAt - 2000)?.discontinuity).toBe(true);
  });

  it('reads the archive back after a restart and appends after one more gap', async () => {
    const before = await recordedSegments(streamDir);
    const rangesBefore = await rangesOf();
    await publisher!.stop();
    await server.restart();
    // The archive answers at once, before anything new is recorded.
    const info = await waitFor(async () => (await dvrStats(server, 'cam')).dvr_info);
    expect(info.ranges).toEqual(
      rangesBefore.map((r, i) => (i < rangesBefore.length - 1 ? r : expect.anything())),
    );
    const restartedAt = Date.now();
    publish();
    await atLeast(2, restartedAt);
    const after = await recordedSegments(streamDir);
    expect(after.slice(0, before.length).map((s) => s.path)).toEqual(before.map((s) => s.path));
    const ranges = await waitFor(async () =>
      (await rangesOf()).length === rangesBefore.length + 1 ? rangesOf() : undefined,
    );
    expect(ranges[0]!.from).toBe(rangesBefore[0]!.from);
  });

  it('loses at most the segment being written on kill -9, and leaves no temporary file counted', async () => {
    await atLeast(2, Date.now());
    // A half-written segment, as a crash leaves it in the hour folder it was being written to.
    const newest = (await recordedSegments(streamDir)).at(-1)!;
    const leftover = join(dirname(newest.path), `.${newest.startMs + 1}.tmp`);
    await writeFile(join(streamDir, leftover), 'partial');
    const before = await recordedSegments(streamDir);
    const killedAt = Date.now();
    await server.stop({ kill: true });
    await publisher!.stop();
    const afterKill = await recordedSegments(streamDir);
    // What was lost is the segment being cut (1 s) and the one being written: the newest on disk
    // ends less than two segments and a margin for a loaded machine before the kill.
    const newestKept = afterKill.at(-1)!;
    expect(killedAt - (newestKept.startMs + newestKept.durationMs)).toBeLessThan(3500);
    // Every whole segment written before the kill is there; at most one more landed meanwhile.
    expect(afterKill.slice(0, before.length)).toEqual(before);
    expect(afterKill.length - before.length).toBeLessThanOrEqual(1);
    await server.restart();
    const info = await waitFor(async () => (await dvrStats(server, 'cam')).dvr_info);
    // The leftover is gone and nothing but whole segments is counted.
    expect((await filesUnder(streamDir)).filter((f) => f.name.endsWith('.tmp'))).toEqual([]);
    expect(info.disk_size).toBe(await bytesOf(streamDir, afterKill));
    expect((await recordedSegments(streamDir)).slice(0, afterKill.length)).toEqual(afterKill);
  });

  it("records a location's published stream under ROOT/PREFIX/NAME, dvr_info in its stats and the websocket deltas", async () => {
    const events = await EventsClient.open(`${server.url}/flussonic/api/events`, {
      authorization: basicAuth(),
    });
    await events.request('read_config', 'current_config');
    const live = rtmpPublisher(`${rtmpBase}/live/x`);
    try {
      await waitFor(async () => (await recordedSegments(join(root, 'live', 'x'))).length >= 2, 30_000);
      const info = await waitFor(async () => (await dvrStats(server, 'live/x', 'live')).dvr_info);
      expect(info.ranges).toHaveLength(1);
      const delta = await waitFor(async () => {
        const event = await events.request('read_config_delta', 'current_config_delta');
        const data = event.data as {
          lives?: Record<string, { streams?: Record<string, { stats?: DvrStats }> }>;
        };
        return data.lives?.live?.streams?.['live/x']?.stats?.dvr_info;
      });
      expect(delta.disk_size).toBeGreaterThan(0);
    } finally {
      events.close();
      await live.stop();
    }
  });
});
