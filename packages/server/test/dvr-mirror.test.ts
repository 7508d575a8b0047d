import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedSegments } from './dvr-helpers.js';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { mirrorView, originConfig } from './mirror-helpers.js';

const KEY = 'dvr-mirror-key';

/** A mirror with `dvr` (issue 15): each mirrored stream records under the mirror's root, and keeps it over a restart. */
describe('DVR of mirrored streams', () => {
  let origin: RunningServer;
  let mirror: RunningServer;
  let root: string;

  beforeAll(async () => {
    origin = await startServer({ config: minimalConfig + originConfig(KEY) });
    const dir = await mkdtemp(join(tmpdir(), 'sluice-dvr-mirror-'));
    root = join(dir, 'archive');
    mirror = await startServer({
      dir,
      config: `${minimalConfig}mirror_poll_seconds 1;\ncluster_key ${KEY};\nsource http://127.0.0.1:${origin.port} {\n  only a;\n  dvr ${root} 1h;\n}\n`,
    });
  });
  afterAll(async () => {
    await Promise.all([origin?.cleanup(), mirror?.cleanup()]);
  });

  const dvrInfoOf = async (name: string) => (await mirrorView(mirror)).streams[name]?.stats.dvr_info;

  it('records a mirrored stream under ROOT/NAME with dvr_info in its stats', async () => {
    await waitFor(async () => (await recordedSegments(join(root, 'a'))).length >= 2, 40_000);
    const info = await waitFor(() => dvrInfoOf('a'));
    expect(info.ranges).toHaveLength(1);
    expect((await mirrorView(mirror)).streams.a?.stats.dvr_enabled).toBe(true);
  });

  it('reads the archive back after a restart and appends, the first new segment marked as not continuing', async () => {
    const before = await recordedSegments(join(root, 'a'));
    await mirror.restart();
    const restartedAt = Date.now();
    // A restart of under a second may leave no gap over RANGE_GAP_MS: what it must do is keep the
    // archive read back and append to it (the recorder's outage test shows the gap).
    const info = await waitFor(async () => {
      const now = await dvrInfoOf('a');
      return now && (now.from ?? 0) + (now.duration ?? 0) > restartedAt / 1000 + 2 ? now : undefined;
    }, 40_000);
    expect(info.from).toBe(Math.floor(before[0]!.startMs / 1000));
    const after = await recordedSegments(join(root, 'a'));
    expect(after.slice(0, before.length)).toEqual(before);
    const appended = after.slice(before.length).filter((s) => s.startMs + s.durationMs > restartedAt);
    expect(appended.length).toBeGreaterThan(0);
    expect(after.slice(before.length).find((s) => s.discontinuity)).toBeDefined();
  });
});
