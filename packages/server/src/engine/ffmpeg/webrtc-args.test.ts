import { describe, expect, it } from 'vitest';
import { rtpSdp, WEBRTC_INGEST_DEFAULTS, webrtcIngestArgs } from './webrtc-args.js';

const head = ['-hide_banner', '-nostdin', '-loglevel', 'level+info', '-nostats'];

describe('rtpSdp', () => {
  it('describes each received track as plain RTP on its local port, with rtpmap and fmtp', () => {
    expect(
      rtpSdp([
        { kind: 'video', port: 40000, payloadType: 96, codec: 'VP8', clockRate: 90000 },
        { kind: 'audio', port: 40002, payloadType: 111, codec: 'opus', clockRate: 48000, channels: 2 },
        {
          kind: 'video',
          port: 40004,
          payloadType: 102,
          codec: 'H264',
          clockRate: 90000,
          channels: 1,
          fmtp: 'packetization-mode=1',
        },
      ]),
    ).toBe(
      [
        'v=0',
        'o=- 0 0 IN IP4 127.0.0.1',
        's=Sluice WebRTC publish',
        'c=IN IP4 127.0.0.1',
        't=0 0',
        'm=video 40000 RTP/AVP 96',
        'a=rtpmap:96 VP8/90000',
        'm=audio 40002 RTP/AVP 111',
        'a=rtpmap:111 opus/48000/2',
        'm=video 40004 RTP/AVP 102',
        'a=rtpmap:102 H264/90000',
        'a=fmtp:102 packetization-mode=1',
        '',
      ].join('\r\n'),
    );
  });
});

describe('webrtcIngestArgs', () => {
  it('reads the SDP on stdin and writes H.264/AAC FLV at a steady rate with 2 s keyframes', () => {
    expect(webrtcIngestArgs()).toEqual([
      ...head,
      ...['-protocol_whitelist', 'pipe,udp,rtp', '-use_wallclock_as_timestamps', '1'],
      ...['-f', 'sdp', '-i', 'pipe:0'],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
      ...['-r', '30', '-b:v', '1500k', '-maxrate', '1500k', '-bufsize', '3000k'],
      ...['-g', '60', '-keyint_min', '60', '-sc_threshold', '0'],
      ...['-c:a', 'aac', '-b:a', '128k', '-ar', '48000', '-ac', '2'],
      ...['-flvflags', 'no_duration_filesize', '-f', 'flv', 'pipe:1'],
    ]);
  });

  it('follows the given bitrates, frame rate and keyframe spacing', () => {
    const args = webrtcIngestArgs({
      videoBitrateKbps: 800,
      audioBitrateKbps: 64,
      keyframeSeconds: 1,
      frameRate: 25,
    });
    expect(args.slice(args.indexOf('-r'), args.indexOf('-sc_threshold'))).toEqual([
      '-r',
      '25',
      '-b:v',
      '800k',
      '-maxrate',
      '800k',
      '-bufsize',
      '1600k',
      '-g',
      '25',
      '-keyint_min',
      '25',
    ]);
    expect(args[args.indexOf('-b:a') + 1]).toBe('64k');
  });

  it("copies the browser's H.264 when asked (no encoder), and still turns Opus into AAC", () => {
    const args = webrtcIngestArgs({ ...WEBRTC_INGEST_DEFAULTS, videoCopy: true });
    expect(args.slice(args.indexOf('-c:v'), args.indexOf('-c:v') + 2)).toEqual(['-c:v', 'copy']);
    expect(args).not.toContain('libx264');
    expect(args.slice(args.indexOf('-c:a'), args.indexOf('-c:a') + 2)).toEqual(['-c:a', 'aac']);
  });
});
