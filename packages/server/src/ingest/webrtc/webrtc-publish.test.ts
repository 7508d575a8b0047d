import { describe, expect, it } from 'vitest';
import { dtlsServerRole } from './webrtc-publish.js';

describe('dtlsServerRole', () => {
  it('answers as the DTLS server on every media section, nothing else changed', () => {
    const answer =
      'v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=setup:active\r\na=mid:0\r\n' +
      'm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=setup:active\r\na=mid:1\r\n';
    expect(dtlsServerRole(answer)).toBe(answer.replaceAll('a=setup:active', 'a=setup:passive'));
  });

  it('leaves an answer that is already passive as it is', () => {
    const answer = 'v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=setup:passive\r\n';
    expect(dtlsServerRole(answer)).toBe(answer);
  });
});
