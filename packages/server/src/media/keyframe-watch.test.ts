import { describe, expect, it } from 'vitest';
import { chunks, makeClip } from '../../test/ts-fixtures.js';
import { KeyframeWatch } from './keyframe-watch.js';
import { PACKET_SIZE } from './ts-packet.js';

describe('KeyframeWatch', () => {
  it('says a source joined mid-GOP may take over only once its next keyframe came', () => {
    // A keyframe every 2 s; joined at ~0.5 s, the next keyframe is ~1.5 s of data away.
    const clip = makeClip({ seconds: 4, video: 'h264', audio: 'aac', gop: 50 });
    const from = Math.floor((clip.length * 0.12) / PACKET_SIZE) * PACKET_SIZE;
    const watch = new KeyframeWatch();
    const parts = chunks(clip.subarray(from), 1316);
    const firstReady = parts.findIndex((part) => watch.push(part));
    expect(firstReady).toBeGreaterThan(parts.length / 5);
    expect(firstReady).toBeLessThan(parts.length / 2);
    expect(watch.push(Buffer.alloc(0))).toBe(true);
  });
});
