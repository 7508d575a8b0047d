import { describe, expect, it } from 'vitest';
import { orderSources, planSource } from './source-url.js';

const plan = (url: string, extra = {}) => planSource({ url, ...extra }, 10);

describe('planSource', () => {
  it('reads unicast and multicast UDP', () => {
    expect(plan('udp://127.0.0.1:5000')).toEqual({ kind: 'udp', bindAddress: '127.0.0.1', port: 5000 });
    expect(plan('udp://239.1.2.3:1234')).toEqual({
      kind: 'udp',
      bindAddress: '0.0.0.0',
      port: 1234,
      multicastGroup: '239.1.2.3',
    });
    expect(plan('udp://10.0.0.5@239.1.2.3:1234')).toMatchObject({
      multicastGroup: '239.1.2.3',
      multicastInterface: '10.0.0.5',
    });
    expect(plan('udp://@239.1.2.3:1234')).toMatchObject({ multicastGroup: '239.1.2.3' });
    expect(plan('udp://:1234')).toEqual({ kind: 'udp', bindAddress: '0.0.0.0', port: 1234 });
    expect(() => plan('udp://239.1.2.3')).toThrow('udp source needs HOST:PORT');
  });

  it('maps tshttp and hls schemes to the HTTP URL they stand for', () => {
    expect(plan('tshttps://origin/live/a/mpegts', { user_agent: 'UA' })).toEqual({
      kind: 'tshttp',
      url: 'https://origin/live/a/mpegts',
      userAgent: 'UA',
    });
    expect(plan('hls://origin/a/index.m3u8')).toEqual({
      kind: 'remux',
      input: { kind: 'hls', input: 'http://origin/a/index.m3u8', timeoutSeconds: 10 },
    });
  });

  it('remuxes RTMP, RTSP with its options, and absolute files', () => {
    expect(plan('rtmp://cam/live/x')).toEqual({
      kind: 'remux',
      input: { kind: 'rtmp', input: 'rtmp://cam/live/x', timeoutSeconds: 10 },
    });
    expect(plan('rtsp://cam/1', { rtp: 'udp', tracks: '1' })).toEqual({
      kind: 'remux',
      input: { kind: 'rtsp', input: 'rtsp://cam/1', timeoutSeconds: 10, rtpUdp: true, tracks: '1' },
    });
    expect(plan('file:///media/a%20b.mp4')).toMatchObject({
      input: { kind: 'file', input: '/media/a b.mp4' },
    });
    expect(() => plan('file://media/a.mp4')).toThrow('absolute path');
  });

  it('reads the test source options, keeping defaults for what is missing or out of range', () => {
    expect(plan('test://')).toEqual({
      kind: 'test',
      options: {
        width: 640,
        height: 360,
        fps: 25,
        videoBitrateKbps: 800,
        audioBitrateKbps: 64,
        toneHz: 1000,
      },
    });
    expect(plan('test://?size=1281x721&fps=30&bitrate=99999&tone=440')).toMatchObject({
      options: { width: 1280, height: 720, fps: 30, videoBitrateKbps: 800, toneHz: 440 },
    });
  });

  it('refuses what it cannot read, saying what it can', () => {
    expect(() => plan('rist://x:1')).toThrow(
      'unsupported source rist://x:1: use udp, tshttp(s), rtmp(s), rtsp(s), srt, hls(s), file or test',
    );
    // SRT (issue 18): ffmpeg's libsrt, caller mode unless the URL says otherwise.
    expect(plan('srt://x:1?passphrase=0123456789')).toEqual({
      kind: 'remux',
      input: { kind: 'srt', input: 'srt://x:1?passphrase=0123456789', timeoutSeconds: 10 },
    });
  });
});

describe('orderSources', () => {
  it('sorts by priority, lower first, keeping the listed order among equals', () => {
    const order = orderSources([
      { url: 'a', priority: 2 },
      { url: 'b' },
      { url: 'c', priority: 1 },
      { url: 'd' },
    ]);
    expect(order.map((e) => e.url)).toEqual(['b', 'd', 'c', 'a']);
  });
});
