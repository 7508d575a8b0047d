import { createDecipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Aes128, ivOf, KEY_ROTATION_SEGMENTS, withKeys } from './aes128.js';

describe('aes128', () => {
  it('puts a key line before the first segment and where the key changes', () => {
    const first = KEY_ROTATION_SEGMENTS - 1;
    const playlist = [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      '#EXT-X-TARGETDURATION:2',
      `#EXT-X-MEDIA-SEQUENCE:${first}`,
      '#EXTINF:2.000,',
      `seg-${first}.ts?token=t`,
      '#EXT-X-DISCONTINUITY',
      '#EXTINF:2.000,',
      `seg-${first + 1}.ts?token=t`,
      '',
    ].join('\n');
    expect(withKeys(playlist, '?token=t').split('\n')).toEqual([
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      '#EXT-X-TARGETDURATION:2',
      `#EXT-X-MEDIA-SEQUENCE:${first}`,
      '#EXT-X-KEY:METHOD=AES-128,URI="key-0.key?token=t"',
      '#EXTINF:2.000,',
      `seg-${first}.ts?token=t`,
      '#EXT-X-KEY:METHOD=AES-128,URI="key-1.key?token=t"',
      '#EXT-X-DISCONTINUITY',
      '#EXTINF:2.000,',
      `seg-${first + 1}.ts?token=t`,
      '',
    ]);
  });

  it("points a transcoder variant's key lines up to the stream's keys", () => {
    const playlist = '#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:5\n#EXTINF:2.000,\nseg-5.ts\n';
    expect(withKeys(playlist, '', '../')).toContain('#EXT-X-KEY:METHOD=AES-128,URI="../key-0.key"\n#EXTINF');
  });

  it('encrypts with AES-128-CBC, the IV being the sequence number', () => {
    const aes = new Aes128({ ownKey: () => Buffer.alloc(16, 7) });
    const data = Buffer.alloc(188 * 10, 0x47);
    const key = Buffer.alloc(16, 7);
    const sealed = aes.encrypt(data, key, 42);
    expect(sealed.length).toBe(Math.ceil((data.length + 1) / 16) * 16);
    const decipher = createDecipheriv('aes-128-cbc', key, ivOf(42));
    expect(Buffer.concat([decipher.update(sealed), decipher.final()])).toEqual(data);
    expect(ivOf(42).toString('hex')).toBe('0000000000000000000000000000002a');
  });
});
