import { describe, expect, it } from 'vitest';
import { h264RecoveryFrameCount, h264SliceIsIntra, parameterSetId } from './h26x-nal.js';

describe('H.264/HEVC NAL header fields', () => {
  it('reads recovery_frame_cnt from a recovery point SEI, also after another message', () => {
    expect(h264RecoveryFrameCount(Buffer.from([0x06, 0x06, 0x01, 0xc4, 0x80]))).toBe(0);
    const userData = [0x05, 0x11, ...Array<number>(17).fill(0xff)];
    expect(h264RecoveryFrameCount(Buffer.from([0x06, ...userData, 0x06, 0x02, 0x2c, 0x40, 0x80]))).toBe(4);
    // Only a user data message (x264's first SEI): no recovery point.
    expect(h264RecoveryFrameCount(Buffer.from([0x06, ...userData, 0x80]))).toBeUndefined();
    // A payloadType of 255 + 6 (0xFF 0x06) is not a recovery point.
    expect(h264RecoveryFrameCount(Buffer.from([0x06, 0xff, 0x06, 0x01, 0xc4, 0x80]))).toBeUndefined();
  });

  it('tells I and SI slices from P and B, and says when the header is cut short', () => {
    expect(h264SliceIsIntra(Buffer.from([0x41, 0x88]))).toBe(true); // slice_type 7
    expect(h264SliceIsIntra(Buffer.from([0x41, 0xb0]))).toBe(true); // slice_type 2
    expect(h264SliceIsIntra(Buffer.from([0x41, 0x98]))).toBe(false); // slice_type 5
    expect(h264SliceIsIntra(Buffer.from([0x01, 0x9c]))).toBe(false); // slice_type 6
    expect(h264SliceIsIntra(Buffer.from([0x41, 0x00]))).toBeUndefined();
  });

  it('reads parameter set ids', () => {
    expect(parameterSetId(8, Buffer.from([0x68, 0x4b]))).toBe(1);
    expect(parameterSetId(7, Buffer.from([0x67, 0x64, 0x00, 0x1f, 0x60]))).toBe(2);
    expect(parameterSetId(32, Buffer.from([0x40, 0x01, 0x3c]))).toBe(3);
  });
});
