import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dvrStats, recordedSegments } from './dvr-helpers.js';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getBytes, getText, modifyConfig, rtmpPublisher, segmentUris } from './media-helpers.js';

/** DVR faults (issue 15): a root that can't be created is said in the stream's stats and a header notice; live goes on. */
describe('DVR faults', () => {
  let server: RunningServer;
  let root: string;
  let dir: string;
  let publisher: { stop: () => Promise<void> } | undefined;

  beforeAll(async () => {
    const port = await freePort();
    dir = await mkdtemp(join(tmpdir(), 'sluice-dvr-faults-'));
    // The root's parent is a regular file: no folder can be made there.
    await writeFile(join(dir, 'not-a-folder'), 'a file');
    root = join(dir, 'not-a-folder', 'archive');
    server = await startServer({
      dir,
      config:
        `${minimalConfig}rtmp ${port};\n` +
        `stream cam {\n  publish_enabled true;\n  static true;\n  segment_duration 1;\n  dvr ${root} 1h;\n}\n`,
    });
    publisher = rtmpPublisher(`rtmp://127.0.0.1:${port}/static/cam`);
  });
  afterAll(async () => {
    await publisher?.stop();
    await server?.cleanup();
  });

  it('shows why the root cannot be written in the stats and the header, and live HLS still plays', async () => {
    const stats = await waitFor(async () => {
      const s = await dvrStats(server, 'cam');
      return s.dvr_error ? s : undefined;
    });
    expect(stats.dvr_enabled).toBe(true);
    expect(stats.dvr_error).toContain(join(root, 'cam'));
    expect(stats.dvr_error).toMatch(/a file is in the way/);
    const status = await waitFor(async () => {
      const { stats: server_ } = (await (await server.api('/flussonic/api/read_config')).json()) as {
        stats: { status: Record<string, string> };
      };
      return server_.status.error_dvr;
    });
    expect(status).toContain('cam');
    // Live playback goes on: a playlist with segments that download.
    const playlist = await waitFor(async () => {
      const { status: code, text } = await getText(`${server.url}/cam/video.m3u8`);
      return code === 200 && segmentUris(text).length >= 2 ? text : undefined;
    });
    const uri = segmentUris(playlist).at(-1)!;
    const segment = await getBytes(new URL(uri, `${server.url}/cam/video.m3u8`).toString());
    expect(segment.length).toBeGreaterThan(1000);
    expect(server.output()).toMatch(/dvr cam: .*a file is in the way.*live playback goes on/);
  });

  it('follows the config: a root fixed records and clears the error; dvr removed stops recording and keeps the archive', async () => {
    const fixed = join(dir, 'fixed');
    await modifyConfig(server, { streams: { cam: { dvr: { root: fixed } } } });
    await waitFor(async () => (await recordedSegments(join(fixed, 'cam'))).length >= 2, 30_000);
    const stats = await waitFor(async () => {
      const s = await dvrStats(server, 'cam');
      return s.dvr_info && s.dvr_error === undefined ? s : undefined;
    });
    expect(stats.dvr_enabled).toBe(true);
    await waitFor(async () => {
      const { stats: server_ } = (await (await server.api('/flussonic/api/read_config')).json()) as {
        stats: { status: Record<string, string> };
      };
      return server_.status.error_dvr === undefined;
    });

    await modifyConfig(server, { streams: { cam: { dvr: null } } });
    await waitFor(async () => (await dvrStats(server, 'cam')).dvr_enabled === undefined);
    const kept = await recordedSegments(join(fixed, 'cam'));
    // Nothing more is written once the stream's next segment has come and gone ("DVR archive would remain").
    await waitFor(async () => {
      const { text } = await getText(`${server.url}/cam/video.m3u8`);
      return text.includes('#EXTINF') ? text : undefined;
    });
    const before = (await getText(`${server.url}/cam/video.m3u8`)).text;
    await waitFor(async () => (await getText(`${server.url}/cam/video.m3u8`)).text !== before);
    expect(await recordedSegments(join(fixed, 'cam'))).toEqual(kept);
  });
});
