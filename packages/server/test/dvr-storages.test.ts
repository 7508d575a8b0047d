import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dvrStats, recordedSegments } from './dvr-helpers.js';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { rtmpPublisher } from './media-helpers.js';

/** Global DVR storages (issue 15, spec 002): `dvr @NAME` records under the storage's root and copies to `copy`. */
describe('DVR storages', () => {
  let server: RunningServer;
  let root: string;
  let copy: string;
  let publisher: { stop: () => Promise<void> } | undefined;

  beforeAll(async () => {
    const port = await freePort();
    const dir = await mkdtemp(join(tmpdir(), 'sluice-dvr-storages-'));
    root = join(dir, 'storage');
    copy = join(dir, 'backup');
    server = await startServer({
      dir,
      config:
        `${minimalConfig}rtmp ${port};\n` +
        `dvr main {\n  root ${root};\n  copy ${copy};\n  schedule 0 2359;\n  dvr_limit 1h;\n}\n` +
        `stream cam {\n  publish_enabled true;\n  static true;\n  segment_duration 1;\n  dvr @main;\n}\n`,
    });
    publisher = rtmpPublisher(`rtmp://127.0.0.1:${port}/static/cam`);
  });
  afterAll(async () => {
    await publisher?.stop();
    await server?.cleanup();
  });

  it('records a `dvr @main` stream under the storage root and copies each finished segment', async () => {
    const recorded = await waitFor(async () => {
      const segments = await recordedSegments(join(root, 'cam'));
      return segments.length >= 3 ? segments : undefined;
    }, 60_000);
    const copied = await waitFor(async () => {
      const segments = await recordedSegments(join(copy, 'cam'));
      return segments.length >= 3 ? segments : undefined;
    }, 60_000);
    expect(copied.slice(0, 3)).toEqual(recorded.slice(0, 3));
    const info = await waitFor(async () => (await dvrStats(server, 'cam')).dvr_info, 60_000);
    expect(info.from).toBe(Math.floor(recorded[0]!.startMs / 1000));
  });
});
