import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dvrStats, recordedSegments } from './dvr-helpers.js';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { rtmpPublisher } from './media-helpers.js';

/** Retention (issue 15): dvr_limit deletes the oldest segments, and nothing outside ROOT/NAME's archive. */
describe('DVR retention', () => {
  let server: RunningServer;
  let root: string;
  let publisher: { stop: () => Promise<void> } | undefined;
  const hourOfNow = () => {
    const d = new Date();
    const p = (n: number) => String(n).padStart(2, '0');
    return `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${p(d.getUTCHours())}`;
  };
  /** Files that are not the stream's archive, each with its content. */
  const bystanders: Record<string, string> = {};

  beforeAll(async () => {
    const port = await freePort();
    const dir = await mkdtemp(join(tmpdir(), 'sluice-dvr-retention-'));
    root = join(dir, 'archive');
    // Another stream's archive segment (older than any limit), notes beside the archive and inside its hour folder.
    bystanders['notes.txt'] = 'root notes';
    bystanders['cam/README'] = 'stream notes';
    bystanders[`cam/${hourOfNow()}/keep.txt`] = 'not a segment';
    bystanders['other/2020/01/01/00/1577836800000-2000.ts'] = 'another stream';
    for (const [path, text] of Object.entries(bystanders)) {
      await mkdir(join(root, path, '..'), { recursive: true });
      await writeFile(join(root, path), text);
    }
    server = await startServer({
      dir,
      config:
        `${minimalConfig}rtmp ${port};\n` +
        `stream cam {\n  publish_enabled true;\n  static true;\n  segment_duration 1;\n  dvr ${root} 4s;\n}\n`,
    });
    publisher = rtmpPublisher(`rtmp://127.0.0.1:${port}/static/cam`);
  });
  afterAll(async () => {
    await publisher?.stop();
    await server?.cleanup();
  });

  it('dvr_limit deletes the oldest segments and nothing else', async () => {
    const first = await waitFor(async () => (await recordedSegments(join(root, 'cam')))[0]);
    // The first segment goes once it ended more than 4 s ago; the archive keeps recording.
    const kept = await waitFor(async () => {
      const segments = await recordedSegments(join(root, 'cam'));
      return segments.length > 0 && segments[0]!.startMs > first.startMs ? segments : undefined;
    }, 30_000);
    const newestEnd = kept.at(-1)!.startMs + kept.at(-1)!.durationMs;
    // What is left reaches back the depth asked for and little more: one segment partly inside it.
    expect(newestEnd - kept[0]!.startMs).toBeLessThanOrEqual(4000 + 2 * 1500);
    const info = await waitFor(async () => {
      const s = await dvrStats(server, 'cam');
      return s.dvr_info && s.dvr_info.from > Math.floor(first.startMs / 1000) ? s.dvr_info : undefined;
    });
    expect(info.depth).toBeLessThanOrEqual(4 + 4);
    for (const [path, text] of Object.entries(bystanders))
      expect(await readFile(join(root, path), 'utf8')).toBe(text);
  });
});
