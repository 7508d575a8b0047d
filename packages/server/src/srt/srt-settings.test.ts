import { describe, expect, it } from 'vitest';
import { passphraseRefusal, srtPorts, srtRefusal } from './srt-settings.js';

describe('SRT settings', () => {
  it("reads streams' srt_publish and srt_play ports; the stream password stands for a missing passphrase", () => {
    const ports = srtPorts({
      streams: {
        cam: {
          password: 'stream-secret',
          srt_publish: { port: 9998 },
          srt_play: { port: 9999, passphrase: 'play-secret-1' },
        },
        off: { disabled: true, srt_publish: { port: 9000 } },
        bad: { srt_publish: { port: 'x' } },
      },
    } as never);
    expect([...ports.keys()]).toEqual(['publish:9998', 'play:9999']);
    expect(ports.get('publish:9998')).toMatchObject({ stream: 'cam', passphrase: 'stream-secret' });
    expect(ports.get('play:9999')).toMatchObject({
      passphrase: 'play-secret-1',
      streamPassword: 'stream-secret',
    });
  });

  it("refuses a passphrase libsrt can't take (10 to 79 characters)", () => {
    expect(passphraseRefusal('short')).toMatch(/10 to 79/);
    expect(passphraseRefusal('0123456789')).toBeUndefined();
    expect(passphraseRefusal(undefined)).toBeUndefined();
  });

  it("finds libsrt's handshake refusal in its log line", () => {
    const line =
      '16:21:35.621243/SRT:RcvQ:w1!W:SRT.cn: processConnectRequest: rsp(REJECT): 1010 - Incorrect passphrase16:21:35.621273/SRT:RcvQ:w1!W:SRT.cn: …';
    expect(srtRefusal(line)).toBe('incorrect passphrase');
    expect(srtRefusal('[srt @ 0x1] accept streamid [publish/cam]')).toBeUndefined();
  });
});
