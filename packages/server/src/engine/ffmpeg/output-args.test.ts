import { describe, expect, it } from 'vitest';
import { dashArgs, dashCutAfterS, flvOutArgs, pushArgs, pushFormat, thumbnailArgs } from './output-args.js';

const head = ['-hide_banner', '-nostdin', '-loglevel', 'level+info', '-nostats'];

describe('dashArgs', () => {
  it('copies H.264 and AAC from stdin into live DASH, telling ffmpeg the MP4 tags', () => {
    expect(
      dashArgs({
        manifestPath: '/tmp/d/index.mpd',
        videoCodec: 'h264',
        audioCodec: 'aac',
        cutAfterS: 1.98,
      }),
    ).toEqual([
      ...head,
      ...['-analyzeduration', '1000000'],
      ...[
        '-f',
        'mpegts',
        '-i',
        'pipe:0',
        '-map',
        '0:v:0',
        '-map',
        '0:a:0',
        '-c',
        'copy',
        '-tag:v',
        'avc1',
        '-tag:a',
        'mp4a',
      ],
      ...[
        '-f',
        'dash',
        '-seg_duration',
        '1.98',
        '-window_size',
        '5',
        '-extra_window_size',
        '3',
        '-use_template',
        '1',
      ],
      ...['-use_timeline', '1', '-adaptation_sets', 'id=0,streams=v id=1,streams=a', '-remove_at_exit', '0'],
      '/tmp/d/index.mpd',
    ]);
  });

  it('leaves out a track DASH cannot carry', () => {
    const args = dashArgs({ manifestPath: 'm', videoCodec: 'mp2v', audioCodec: 'aac', cutAfterS: 2 });
    expect(args).not.toContain('0:v:0');
    expect(args[args.indexOf('-adaptation_sets') + 1]).toBe('id=0,streams=a');
  });
});

describe('dashCutAfterS', () => {
  it('starts looking for the cut half a frame short of the target, so the nearest keyframe cuts', () => {
    expect(dashCutAfterS(2000, 30)).toBe(1.983);
    expect(dashCutAfterS(2000, 25)).toBe(1.98);
    expect(dashCutAfterS(2000, undefined)).toBe(1.98);
    expect(dashCutAfterS(6000, 60)).toBe(5.992);
  });
});

describe('flvOutArgs', () => {
  it('copies the first video and audio tracks from stdin into FLV on stdout', () => {
    expect(flvOutArgs()).toEqual([
      ...head,
      ...['-f', 'mpegts', '-i', 'pipe:0', '-map', '0:v:0?', '-map', '0:a:0?', '-c', 'copy'],
      ...['-f', 'flv', '-flvflags', 'no_duration_filesize', 'pipe:1'],
    ]);
  });
});

describe('thumbnailArgs', () => {
  it('decodes the first keyframe only and writes it as one JPEG, no wider than asked', () => {
    expect(thumbnailArgs(640)).toEqual([
      ...head,
      ...[
        '-skip_frame',
        'nokey',
        '-f',
        'mpegts',
        '-i',
        'pipe:0',
        '-map',
        '0:v:0',
        '-vf',
        "scale='min(640,iw)':-2",
      ],
      ...['-frames:v', '1', '-c:v', 'mjpeg', '-q:v', '5', '-f', 'image2pipe', 'pipe:1'],
    ]);
  });
});

describe('pushArgs', () => {
  const input = ['-f', 'mpegts', '-i', 'pipe:0', '-map', '0:v?', '-map', '0:a?', '-c', 'copy'];
  it('pushes RTMP as FLV and UDP as MPEG-TS in 7-packet datagrams', () => {
    expect(pushArgs('rtmp://cdn/app/key')).toEqual([...head, ...input, '-f', 'flv', 'rtmp://cdn/app/key']);
    expect(pushArgs('udp://239.0.0.1:1234')).toEqual([
      ...head,
      ...input,
      '-f',
      'mpegts',
      'udp://239.0.0.1:1234?pkt_size=1316',
    ]);
    expect(pushFormat('http://x/y')).toBeUndefined();
  });
});
