import { describe, expect, it } from 'vitest';
import { closeReason, publishRequestFor } from './webrtc-socket.js';

describe('publishRequestFor', () => {
  it('names a stream the way an RTMP URL does: one segment is static/NAME, more is APP/NAME', () => {
    expect(publishRequestFor('cam1', { password: 'x' }, '10.0.0.5')).toEqual({
      app: 'static',
      name: 'cam1',
      query: { password: 'x' },
      remoteAddress: '10.0.0.5',
      via: 'webrtc',
    });
    expect(publishRequestFor('live/cam1', {}, '::1')).toMatchObject({ app: 'live', name: 'cam1' });
    expect(publishRequestFor('a/b/c', {}, '::1')).toMatchObject({ app: 'a', name: 'b/c' });
  });
});

describe('closeReason', () => {
  it('keeps at most 123 bytes of UTF-8, never half a character', () => {
    expect(closeReason('refused')).toBe('refused');
    const cut = closeReason('é'.repeat(100));
    expect(cut).toBe('é'.repeat(61));
    expect(Buffer.byteLength(cut)).toBe(122);
    expect(closeReason('a'.repeat(200))).toHaveLength(123);
  });
});
