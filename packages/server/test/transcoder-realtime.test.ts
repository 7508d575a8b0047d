import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { streamStats } from './media-helpers.js';

/**
 * A transcoder that can't keep up is the stream's error (docs/media.md Transcoder): HEVC at
 * x265's slowest preset, 720p, is far beyond real time on a small machine.
 */
describe('a transcoder slower than real time', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream slow {
  url test://?size=1280x720&bitrate=1500;
  static true;
  transcoder {
    video { 0 { bitrate 2000000; codec hevc; preset veryslow; } }
  }
}
`,
    });
  });
  afterAll(() => server?.cleanup());

  it('shows in source_error, while running_transcoder stays true', async () => {
    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'slow');
      return s.source_error?.startsWith("transcoder can't hold real time") ? s : undefined;
    }, 60_000);
    expect(stats.source_error).toMatch(/^transcoder can't hold real time: 0\.\d\dx over the last 10 s$/);
    expect(stats.running_transcoder).toBe(true);
    expect(stats.alive).toBe(true);
  });
});
