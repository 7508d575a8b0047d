import { spawn, spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { type PublishRequest, RtmpServer } from './rtmp-server.js';

const quiet = { notice: () => undefined, error: () => undefined };

/** ffmpeg publishing a short test pattern with a tone over RTMP, as an encoder would. */
function publish(url: string, seconds = 2) {
  return spawn('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-re',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=320x240:rate=25:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-g',
    '25',
    '-c:a',
    'aac',
    '-f',
    'flv',
    url,
  ]);
}

describe('RtmpServer', () => {
  let server: RtmpServer | undefined;
  afterEach(() => server?.close());

  it('hands a publisher its media as FLV that ffprobe reads as H.264 and AAC', async () => {
    const chunks: Buffer[] = [];
    const requests: PublishRequest[] = [];
    let ended!: () => void;
    const done = new Promise<void>((resolve) => (ended = resolve));
    server = new RtmpServer((request) => {
      requests.push(request);
      return { write: (b) => chunks.push(b), end: () => ended() };
    }, quiet);
    const port = await server.listen(0, '127.0.0.1');
    const encoder = publish(`rtmp://127.0.0.1:${port}/live/cam1?password=s3cret`);
    await done;
    expect(encoder.exitCode ?? (await new Promise((r) => encoder.once('exit', r)))).toBe(0);
    expect(requests).toEqual([
      { app: 'live', name: 'cam1', query: { password: 's3cret' }, remoteAddress: '127.0.0.1' },
    ]);

    const probe = spawnSync(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', '-f', 'flv', '-i', 'pipe:0'],
      {
        input: Buffer.concat(chunks),
      },
    );
    expect(probe.stdout.toString().trim().split('\n').sort()).toEqual(['aac', 'h264']);
  });

  it('closes the connection of a refused publisher', async () => {
    let asked = 0;
    server = new RtmpServer(() => {
      asked++;
      return { refused: 'no such stream' };
    }, quiet);
    const port = await server.listen(0, '127.0.0.1');
    const encoder = publish(`rtmp://127.0.0.1:${port}/live/unknown`, 5);
    const code = await new Promise((resolve) => encoder.once('exit', resolve));
    expect(asked).toBe(1);
    expect(code).not.toBe(0);
  });
});
