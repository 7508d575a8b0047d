import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, minimalConfig, type RunningServer, startServer } from '../../server/test/harness.js';
import { rtmpPublisher } from '../../server/test/media-helpers.js';
import { fillLibrary } from './vod-browser-fixture.js';

/**
 * A server holding one item of each kind, so every main page shows real content: a running stream
 * `demo` (recording when `dvr`), a disabled stream `idle`, a location `cams` with `cam` published to
 * it over RTMP, a mirror source, a VOD library `vod` (vod-browser-fixture.ts), a DVR storage `main`
 * and an auth backend `paid`. The page specs that walk every page (axe, phone widths) share it.
 */
export async function startEveryKindServer(options: { dvr?: boolean } = {}): Promise<{
  server: RunningServer;
  stop: () => Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-e2e-every-kind-'));
  const library = join(dir, 'library');
  await mkdir(library);
  await fillLibrary(library);
  const rtmp = await freePort();
  const dvr = options.dvr ? `  dvr ${join(dir, 'dvr')} 1h;\n` : '';
  const server = await startServer({
    config: [
      minimalConfig,
      `rtmp ${rtmp};\n`,
      `stream demo {\n  url test://?size=320x180&bitrate=300;\n${dvr}}\n`,
      'stream idle {\n  url udp://239.0.1.9:1234;\n  disabled true;\n}\n',
      'live cams {\n}\n',
      'source http://127.0.0.1:9 {\n}\n',
      `file vod {\n  path ${library};\n}\n`,
      `dvr main {\n  root ${join(dir, 'storage')};\n}\n`,
      'auth_backend paid {\n  allow token gold;\n}\n',
    ].join(''),
  });
  const publisher = rtmpPublisher(`rtmp://127.0.0.1:${rtmp}/cams/cam`);
  return {
    server,
    stop: async () => {
      await publisher.stop();
      await server.cleanup();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
