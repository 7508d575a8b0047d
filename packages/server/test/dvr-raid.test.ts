import { mkdir, mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dvrStats, recordedSegments } from './dvr-helpers.js';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { rtmpPublisher } from './media-helpers.js';

/** A segment file's path in the archive layout (dvr/layout.ts). */
function layoutPath(startMs: number, durationMs: number): string {
  const d = new Date(startMs);
  const p = (n: number) => String(n).padStart(2, '0');
  const hour = `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${p(d.getUTCHours())}`;
  return `${hour}/${startMs}-${durationMs}d.ts`;
}

/**
 * RAID 0 storages (issue 15, spec 002 §3): segments spread over the disks (ROOT/DISK), a missing
 * disk skipped and said, a readonly disk read but not written, an abandoned disk neither.
 */
describe('DVR RAID 0', () => {
  let server: RunningServer;
  let root: string;
  let publisher: { stop: () => Promise<void> } | undefined;
  const oldReadonly = Date.now() - 600_000;
  const oldAbandoned = Date.now() - 700_000;

  beforeAll(async () => {
    const port = await freePort();
    const dir = await mkdtemp(join(tmpdir(), 'sluice-dvr-raid-'));
    root = join(dir, 'storage');
    // Disks a and b are mounted; c is not (no folder); r holds an old archive, read only; x is abandoned.
    for (const disk of ['a', 'b']) await mkdir(join(root, disk), { recursive: true });
    const put = async (disk: string, startMs: number) => {
      const path = join(root, disk, 'cam', layoutPath(startMs, 2000));
      await mkdir(join(path, '..'), { recursive: true });
      await writeFile(path, Buffer.alloc(188 * 10, 0x47));
    };
    await put('r', oldReadonly);
    await put('x', oldAbandoned);
    server = await startServer({
      dir,
      config:
        `${minimalConfig}rtmp ${port};\n` +
        `dvr main {\n  root ${root};\n  raid 0;\n  disk a;\n  disk b;\n  disk c;\n  disk r mode=readonly;\n  disk x mode=abandon;\n  dvr_limit 1h;\n}\n` +
        `stream cam {\n  publish_enabled true;\n  static true;\n  segment_duration 1;\n  dvr @main;\n}\n`,
    });
    publisher = rtmpPublisher(`rtmp://127.0.0.1:${port}/static/cam`);
  });
  afterAll(async () => {
    await publisher?.stop();
    await server?.cleanup();
  });

  it('spreads segments over the mounted disks, skips a missing one and says so', async () => {
    const [a, b] = await waitFor(async () => {
      const found = await Promise.all(['a', 'b'].map((d) => recordedSegments(join(root, d, 'cam'))));
      return found.every((s) => s.length >= 2) ? found : undefined;
    }, 30_000);
    expect(a!.length + b!.length).toBeGreaterThanOrEqual(4);
    // Never written into an unmounted disk's mount point, nor into a readonly or abandoned disk.
    await expect(stat(join(root, 'c'))).rejects.toThrow(/ENOENT/);
    expect(await recordedSegments(join(root, 'r', 'cam'))).toHaveLength(1);
    expect(await recordedSegments(join(root, 'x', 'cam'))).toHaveLength(1);
    const stats = await waitFor(async () => {
      const s = await dvrStats(server, 'cam');
      return s.dvr_error && (s.dvr_info?.ranges?.length ?? 0) >= 2 ? s : undefined;
    });
    expect(stats.dvr_error).toContain(join(root, 'c'));
    expect(stats.dvr_error).toMatch(/recording goes on on the other disks/);
    // The readonly disk's old segment is in the archive; the abandoned disk's is not.
    expect(stats.dvr_info!.from).toBe(Math.floor(oldReadonly / 1000));
    expect(stats.dvr_info!.ranges![0]).toEqual({ from: Math.floor(oldReadonly / 1000), duration: 2 });
  });
});
