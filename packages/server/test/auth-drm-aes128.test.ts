import { createDecipheriv } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getBytes, getText, modifyConfig, probeStreams, segmentUris, streamStats } from './media-helpers.js';

const ivOf = (sequence: number) => {
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(sequence), 8);
  return iv;
};
const decrypt = (data: Buffer, key: Buffer, sequence: number) => {
  const decipher = createDecipheriv('aes-128-cbc', key, ivOf(sequence));
  return Buffer.concat([decipher.update(data), decipher.final()]);
};

/** DRM aes128 applied for real: HLS segments encrypted AES-128-CBC, keys from Sluice or a keyserver. */
describe('drm aes128', () => {
  let server: RunningServer;
  let keyserver: Server;
  let keyserverUrl: string;
  const keyCalls: URLSearchParams[] = [];
  const serverKey = Buffer.from('00112233445566778899aabbccddeeff', 'hex');

  beforeAll(async () => {
    keyserver = createServer((req, res) => {
      keyCalls.push(new URL(req.url ?? '/', 'http://x').searchParams);
      res.end(serverKey.toString('hex'));
    });
    await new Promise<void>((resolve) => keyserver.listen(0, '127.0.0.1', resolve));
    keyserverUrl = `http://127.0.0.1:${(keyserver.address() as AddressInfo).port}/key`;
    server = await startServer({
      config:
        `${minimalConfig}stream enc {\n  url test://?size=320x180&bitrate=300;\n  static true;\n` +
        `  drm {\n    vendor aes128;\n  }\n}\n`,
    });
    await waitFor(async () => (await streamStats(server, 'enc')).alive, 20_000);
  });
  afterAll(async () => {
    await server?.cleanup();
    await new Promise((resolve) => keyserver?.close(resolve));
  });

  /** The playlist's first segment and key: sequence, encrypted bytes, key bytes. */
  const firstSegment = async (query = '') => {
    const playlist = await getText(`${server.url}/enc/video.m3u8${query}`);
    expect(playlist.status).toBe(200);
    const keyLine = /#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)"/.exec(playlist.text);
    expect(keyLine).not.toBeNull();
    const uri = segmentUris(playlist.text)[0]!;
    const sequence = Number(/seg-(\d+)\.ts/.exec(uri)![1]);
    const data = await getBytes(`${server.url}/enc/${uri}`);
    const key = await getBytes(`${server.url}/enc/${keyLine![1]}`);
    return { playlist: playlist.text, keyUri: keyLine![1]!, sequence, data, key };
  };

  it('says in server info that aes128 is applied', async () => {
    const info = (await (await server.api('/flussonic/api/server')).json()) as {
      capabilities: { drm_applied: string[] };
    };
    expect(info.capabilities.drm_applied).toEqual(['aes128']);
  });

  it('encrypts segments with its own key; decrypted they are H.264 in TS, and the playlist plays', async () => {
    const { keyUri, sequence, data, key } = await firstSegment('?token=p1');
    expect(keyUri).toMatch(/^key-\d+\.key\?token=p1$/);
    expect(key).toHaveLength(16);
    expect(data[0] === 0x47 && data[188] === 0x47).toBe(false);
    const clear = decrypt(data, key, sequence);
    expect(clear[0]).toBe(0x47);
    expect(clear[188]).toBe(0x47);
    expect(probeStreams(clear).map((s) => s.codec_name)).toContain('h264');
    // ffmpeg's HLS reader fetches the key and decrypts by itself.
    const played = probeStreams(`${server.url}/enc/index.m3u8`, ['-allowed_extensions', 'ALL']);
    expect(played.find((s) => s.codec_name === 'h264')?.width).toBe(320);
  });

  it('serves no clear stream on the other outputs', async () => {
    const ts = await getText(`${server.url}/enc/mpegts`);
    expect(ts).toEqual({ status: 403, text: 'stream enc is encrypted (drm aes128): only HLS is served\n' });
    expect((await getText(`${server.url}/enc/index.mpd`)).status).toBe(403);
  });

  it('takes the key from drm.keyserver, fetched once per key period', async () => {
    await modifyConfig(server, {
      streams: { enc: { drm: { keyserver: keyserverUrl }, meta: { drm_id: 'res-9' } } },
    });
    const first = await firstSegment();
    expect(first.key).toEqual(serverKey);
    expect(decrypt(first.data, serverKey, first.sequence)[0]).toBe(0x47);
    const second = await firstSegment();
    expect(decrypt(second.data, serverKey, second.sequence)[0]).toBe(0x47);
    expect(keyCalls).toHaveLength(1);
    expect(Object.fromEntries(keyCalls[0]!)).toEqual({
      name: 'enc',
      key_id: String(Math.floor(first.sequence / 300)),
      drm_id: 'res-9',
    });
  });

  it('gives keys only to players that pass play authorization', async () => {
    const { keyUri } = await firstSegment();
    await modifyConfig(server, { streams: { enc: { auth: { domains: ['tv.example.com'] } } } });
    expect((await getText(`${server.url}/enc/${keyUri}`)).status).toBe(403);
    const ok = await fetch(`${server.url}/enc/${keyUri}`, {
      headers: { referer: 'https://tv.example.com/' },
    });
    expect(ok.status).toBe(200);
    expect(Buffer.from(await ok.arrayBuffer())).toEqual(serverKey);
  });
});
