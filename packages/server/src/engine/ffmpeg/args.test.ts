import { describe, expect, it } from 'vitest';
import { flvRemuxArgs, remuxArgs, TEST_SOURCE_DEFAULTS, testSourceArgs } from './args.js';

const head = ['-hide_banner', '-nostdin', '-loglevel', 'level+info', '-nostats'];
const tail = ['-c', 'copy', '-f', 'mpegts', 'pipe:1'];
const allTracks = ['-map', '0:v?', '-map', '0:a?'];

describe('testSourceArgs', () => {
  it('builds the test pattern with a tone, H.264 yuv420p with a keyframe every 2 s, AAC, MPEG-TS on stdout', () => {
    expect(testSourceArgs(TEST_SOURCE_DEFAULTS)).toEqual([
      ...head,
      '-re',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=640x360:rate=25',
      '-re',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=1000:sample_rate=48000',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-tune',
      'zerolatency',
      '-pix_fmt',
      'yuv420p',
      '-b:v',
      '800k',
      '-maxrate',
      '800k',
      '-bufsize',
      '1600k',
      '-g',
      '50',
      '-keyint_min',
      '50',
      '-sc_threshold',
      '0',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-ac',
      '2',
      '-f',
      'mpegts',
      'pipe:1',
    ]);
  });

  it('derives the GOP from the frame rate', () => {
    const args = testSourceArgs({ ...TEST_SOURCE_DEFAULTS, fps: 30, width: 1280, height: 720 });
    expect(args).toContain('testsrc2=size=1280x720:rate=30');
    expect(args[args.indexOf('-g') + 1]).toBe('60');
  });
});

describe('remuxArgs', () => {
  it('remuxes RTMP with a read timeout', () => {
    expect(remuxArgs({ kind: 'rtmp', input: 'rtmp://cam/live/a', timeoutSeconds: 10 })).toEqual([
      ...head,
      '-rw_timeout',
      '10000000',
      '-i',
      'rtmp://cam/live/a',
      ...allTracks,
      ...tail,
    ]);
  });

  it('remuxes RTSP over TCP by default and over UDP when asked, with chosen tracks', () => {
    expect(remuxArgs({ kind: 'rtsp', input: 'rtsp://cam/1', timeoutSeconds: 5 })).toEqual([
      ...head,
      '-rtsp_transport',
      'tcp',
      '-timeout',
      '5000000',
      '-i',
      'rtsp://cam/1',
      ...allTracks,
      ...tail,
    ]);
    expect(
      remuxArgs({ kind: 'rtsp', input: 'rtsp://cam/1', timeoutSeconds: 5, rtpUdp: true, tracks: '1, 3' }),
    ).toEqual([
      ...head,
      '-rtsp_transport',
      'udp',
      '-timeout',
      '5000000',
      '-i',
      'rtsp://cam/1',
      '-map',
      '0:0',
      '-map',
      '0:2',
      ...tail,
    ]);
  });

  it('remuxes HLS with the configured user agent', () => {
    expect(
      remuxArgs({ kind: 'hls', input: 'https://o/x/index.m3u8', timeoutSeconds: 10, userAgent: 'Sluice/1' }),
    ).toEqual([
      ...head,
      '-rw_timeout',
      '10000000',
      '-user_agent',
      'Sluice/1',
      '-i',
      'https://o/x/index.m3u8',
      ...allTracks,
      ...tail,
    ]);
  });

  it('sends no CR/LF to ffmpeg in the user agent: no request header of the value’s choosing', () => {
    const userAgent = 'Sluice/1\r\nX-Forwarded-For: 10.0.0.1\u0000';
    expect(remuxArgs({ kind: 'rtmp', input: 'rtmp://o/live/a', timeoutSeconds: 5, userAgent })).toEqual([
      ...head,
      '-rw_timeout',
      '5000000',
      '-user_agent',
      'Sluice/1X-Forwarded-For: 10.0.0.1',
      '-i',
      'rtmp://o/live/a',
      ...allTracks,
      ...tail,
    ]);
  });

  it('plays a file as a live stream: paced and looping', () => {
    expect(
      remuxArgs({ kind: 'file', input: '/media/a.mp4', timeoutSeconds: 10, userAgent: 'ignored' }),
    ).toEqual([...head, '-re', '-stream_loop', '-1', '-i', '/media/a.mp4', ...allTracks, ...tail]);
  });
});

describe('flvRemuxArgs', () => {
  it('reads FLV on stdin and writes MPEG-TS on stdout, copying the codecs', () => {
    expect(flvRemuxArgs()).toEqual([...head, '-f', 'flv', '-i', 'pipe:0', ...allTracks, ...tail]);
  });
});
