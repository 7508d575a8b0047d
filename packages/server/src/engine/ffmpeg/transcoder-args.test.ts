import { describe, expect, it } from 'vitest';
import type { Transcoder } from '@sluice/api';
import { audioArgs, transcoderArgs, type TranscoderPlan } from './transcoder-args.js';

const head = ['-hide_banner', '-nostdin', '-loglevel', 'level+info', '-nostats'];
const progress = ['-progress', 'pipe:2', '-stats_period', '1'];
const stdin = ['-f', 'mpegts', '-i', 'pipe:0'];
const out = ['-f', 'mpegts', 'pipe:1'];

const plan = (config: Transcoder, more: Partial<TranscoderPlan> = {}): TranscoderPlan => ({
  config,
  keyframeSeconds: 2,
  logoFile: (path) => (path === '@corner.png' ? '/data/logos/corner.png' : undefined),
  video: { codec: 'h264', width: 1920, height: 1080 },
  audio: true,
  ...more,
});

describe('transcoderArgs on cpu', () => {
  it('decodes once and encodes 720p and 360p H.264 renditions, each in a program with the shared AAC', () => {
    const args = transcoderArgs(
      plan({
        global: { hw: 'cpu' },
        audio: { bitrate: 64000, codec: 'aac' },
        video: {
          '1': { bitrate: 700000, codec: 'h264', size: { width: -1, height: 360 } },
          '0': { bitrate: 2500000, codec: 'h264', size: { width: -1, height: 720 }, preset: 'fast' },
        },
      }),
    );
    expect(args).toEqual([
      ...head,
      ...progress,
      ...stdin,
      '-filter_complex',
      '[0:v:0]split=2[s0][s1];[s0]scale=w=-2:h=720,format=yuv420p[v0];[s1]scale=w=-2:h=360,format=yuv420p[v1]',
      ...['-map', '[v0]', '-c:v:0', 'libx264', '-b:v:0', '2500000', '-maxrate:v:0', '2500000'],
      ...['-bufsize:v:0', '2500000', '-preset:v:0', 'fast'],
      ...['-force_key_frames:v:0', 'expr:gte(t,n_forced*2)', '-sc_threshold:v:0', '0'],
      ...['-map', '[v1]', '-c:v:1', 'libx264', '-b:v:1', '700000', '-maxrate:v:1', '700000'],
      ...['-bufsize:v:1', '700000', '-preset:v:1', 'veryfast'],
      ...['-force_key_frames:v:1', 'expr:gte(t,n_forced*2)', '-sc_threshold:v:1', '0'],
      ...['-map', '0:a:0', '-c:a', 'aac', '-b:a', '64000'],
      ...['-program', 'program_num=1:title=v1:st=0:st=2', '-program', 'program_num=2:title=v2:st=1:st=2'],
      ...out,
    ]);
  });

  it('crops, deinterlaces and threads the decoder; profile, level, B-frames, refs, GOP, fps, aspect, extra', () => {
    const args = transcoderArgs(
      plan({
        decoder: { deinterlace: 'on', threads: 2, crop: { left: 8, top: 4, width: 1280, height: 720 } },
        video: {
          '0': {
            bitrate: 1000000,
            codec: 'h264',
            profile: 'main',
            level: '3.1',
            bframes: 2,
            refs: 3,
            g: 50,
            fps: 25,
            size: { width: 640, height: -1 },
            aspect: { x: 16, y: 9 },
            disable_cgop: true,
            extra: { tune: 'zerolatency', map: 'refused', '1bad': 'refused' },
          },
        },
      }),
    );
    expect(args).toEqual([
      ...head,
      ...progress,
      // -threads before -i: the decoder's threads.
      ...['-threads', '2'],
      ...stdin,
      '-filter_complex',
      '[0:v:0]crop=w=1280:h=720:x=8:y=4,yadif=mode=send_frame:parity=auto:deint=interlaced,scale=w=640:h=-2,fps=25,format=yuv420p[v0]',
      ...['-map', '[v0]', '-c:v:0', 'libx264', '-b:v:0', '1000000', '-maxrate:v:0', '1000000'],
      ...['-bufsize:v:0', '1000000', '-preset:v:0', 'veryfast', '-profile:v:0', 'main', '-level:v:0', '3.1'],
      ...['-bf:v:0', '2', '-refs:v:0', '3', '-g:v:0', '50', '-sc_threshold:v:0', '0'],
      ...['-x264opts:v:0', 'open-gop=1', '-aspect:v:0', '16:9', '-tune:v:0', 'zerolatency'],
      ...['-map', '0:a:0', '-c:a', 'aac', '-b:a', '64000'],
      ...['-program', 'program_num=1:title=v1:st=0:st=1'],
      ...out,
    ]);
  });

  it('overlays an uploaded logo at its corner expressions, escaped for the graph', () => {
    const args = transcoderArgs(
      plan(
        {
          video: {
            '0': {
              bitrate: 1000000,
              logo: { path: ' @corner.png ', x: 'main_w-overlay_w-10', y: 'max(10, main_h/20)' },
            },
          },
        },
        { audio: false },
      ),
    );
    expect(args).toEqual([
      ...head,
      ...progress,
      ...stdin,
      ...['-i', '/data/logos/corner.png'],
      '-filter_complex',
      '[0:v:0]null[b0];[b0][1:v]overlay=x=main_w-overlay_w-10:y=max(10\\,main_h/20):eof_action=repeat,format=yuv420p[v0]',
      ...['-map', '[v0]', '-c:v:0', 'libx264', '-b:v:0', '1000000', '-maxrate:v:0', '1000000'],
      ...['-bufsize:v:0', '1000000', '-preset:v:0', 'veryfast'],
      ...['-force_key_frames:v:0', 'expr:gte(t,n_forced*2)', '-sc_threshold:v:0', '0'],
      ...['-program', 'program_num=1:title=v1:st=0'],
      ...out,
    ]);
  });

  it('leaves out a logo that is no uploaded one, or whose position could break out of the overlay', () => {
    const graph = (logo: { path: string; x?: string; y?: string }) => {
      const args = transcoderArgs(plan({ video: { '0': { bitrate: 1000000, logo } } }, { audio: false }));
      return args[args.indexOf('-filter_complex') + 1];
    };
    expect(graph({ path: '/etc/passwd', x: '10', y: '10' })).toBe('[0:v:0]null,format=yuv420p[v0]');
    expect(graph({ path: '@corner.png', x: '10[x];movie=/etc/passwd', y: '10' })).toBe(
      '[0:v:0]null,format=yuv420p[v0]',
    );
  });

  it('encodes HEVC with libx265 (level and scene cuts in its params) and MPEG-2 with mpeg2video', () => {
    const args = transcoderArgs(
      plan(
        {
          video: {
            '0': { bitrate: 2000000, codec: 'hevc', profile: 'main10', level: '4.1' },
            '1': { bitrate: 3000000, codec: 'mp2v', profile: 'main', level: 'main', bframes: 2, refs: 2 },
          },
        },
        { audio: false },
      ),
    );
    expect(args).toEqual([
      ...head,
      ...progress,
      ...stdin,
      '-filter_complex',
      '[0:v:0]split=2[s0][s1];[s0]null,format=yuv420p10le[v0];[s1]null,format=yuv420p[v1]',
      ...['-map', '[v0]', '-c:v:0', 'libx265', '-b:v:0', '2000000', '-maxrate:v:0', '2000000'],
      ...['-bufsize:v:0', '2000000', '-preset:v:0', 'veryfast', '-profile:v:0', 'main10'],
      ...['-force_key_frames:v:0', 'expr:gte(t,n_forced*2)'],
      ...['-x265-params:v:0', 'log-level=error:scenecut=0:level-idc=4.1:open-gop=0'],
      ...['-map', '[v1]', '-c:v:1', 'mpeg2video', '-b:v:1', '3000000', '-maxrate:v:1', '3000000'],
      ...['-bufsize:v:1', '3000000', '-profile:v:1', '4', '-level:v:1', '8', '-bf:v:1', '2'],
      ...['-force_key_frames:v:1', 'expr:gte(t,n_forced*2)', '-sc_threshold:v:1', '0'],
      ...['-program', 'program_num=1:title=v1:st=0', '-program', 'program_num=2:title=v2:st=1'],
      ...out,
    ]);
  });

  it('copies a track with bitrate copy, and needs no filter graph then', () => {
    expect(transcoderArgs(plan({ video: { '0': { bitrate: 'copy' } }, audio: { bitrate: 'copy' } }))).toEqual(
      [
        ...head,
        ...progress,
        ...stdin,
        ...['-map', '0:v:0', '-c:v:0', 'copy', '-map', '0:a:0', '-c:a', 'copy'],
        ...['-program', 'program_num=1:title=v1:st=0:st=1'],
        ...out,
      ],
    );
  });

  it('with no video tracks transcodes only the audio', () => {
    expect(
      transcoderArgs(plan({ audio: { bitrate: 96000, codec: 'opus', sample_rate: 48000, channels: 2 } })),
    ).toEqual([
      ...head,
      ...progress,
      ...stdin,
      ...['-map', '0:a:0', '-c:a', 'libopus', '-b:a', '96000', '-ar', '48000', '-ac', '2'],
      ...out,
    ]);
  });
});

describe('audioArgs', () => {
  it('takes AAC at 64 kbit/s when the audio is left to defaults (null or absent)', () => {
    expect(audioArgs(null)).toEqual(['-c:a', 'aac', '-b:a', '64000']);
    expect(audioArgs(undefined)).toEqual(['-c:a', 'aac', '-b:a', '64000']);
  });
  it('encodes MPEG audio with mp2; sample rate 0 keeps the source rate', () => {
    expect(audioArgs({ bitrate: 128000, codec: 'mp2a', sample_rate: 0, channels: 1 })).toEqual([
      ...['-c:a', 'mp2', '-b:a', '128000', '-ac', '1'],
    ]);
  });
});

describe('transcoderArgs on hardware (argv only: no such device here)', () => {
  const track = { bitrate: 2000000, codec: 'h264' as const, size: { height: 720 } };

  it('nvenc: CUVID decodes, deinterlaces (bob) and crops on GPU N; NVENC encodes there', () => {
    const args = transcoderArgs(
      plan({
        global: { hw: 'nvenc', deviceid: 1 },
        decoder: {
          deinterlace: 'bob',
          drop_second: true,
          crop: { left: 10, top: 20, width: 1280, height: 720 },
        },
        video: {
          '0': { ...track, preset: 'llhq' },
          '1': { bitrate: 800000, codec: 'hevc', preset: 'zerolatency' },
        },
      }),
    );
    expect(args).toEqual([
      ...head,
      ...progress,
      ...['-c:v', 'h264_cuvid', '-gpu', '1', '-deint', 'bob', '-drop_second_field', '1'],
      // 1080 - 20 - 720 = 340 rows cut at the bottom, 1920 - 10 - 1280 = 630 columns at the right.
      ...['-crop', '20x340x10x630'],
      ...stdin,
      '-filter_complex',
      '[0:v:0]split=2[s0][s1];[s0]scale=w=-2:h=720,format=yuv420p[v0];[s1]null,format=yuv420p[v1]',
      ...['-map', '[v0]', '-c:v:0', 'h264_nvenc', '-b:v:0', '2000000', '-maxrate:v:0', '2000000'],
      ...['-bufsize:v:0', '2000000', '-gpu:v:0', '1', '-preset:v:0', 'llhq'],
      ...['-force_key_frames:v:0', 'expr:gte(t,n_forced*2)'],
      ...['-map', '[v1]', '-c:v:1', 'hevc_nvenc', '-b:v:1', '800000', '-maxrate:v:1', '800000'],
      ...['-bufsize:v:1', '800000', '-gpu:v:1', '1', '-preset:v:1', 'll', '-zerolatency:v:1', '1'],
      ...['-force_key_frames:v:1', 'expr:gte(t,n_forced*2)'],
      ...['-map', '0:a:0', '-c:a', 'aac', '-b:a', '64000'],
      ...['-program', 'program_num=1:title=v1:st=0:st=2', '-program', 'program_num=2:title=v2:st=1:st=2'],
      ...out,
    ]);
  });

  it('qsv: decodes on the render node of device N, deinterlaces on the CPU, encodes with Quick Sync', () => {
    const args = transcoderArgs(
      plan({
        global: { hw: 'qsv', deviceid: 0 },
        decoder: { deinterlace: 'on' },
        video: { '0': { ...track, codec: 'hevc', profile: 'main', level: '4.1' } },
      }),
    );
    expect(args).toEqual([
      ...head,
      ...progress,
      ...['-hwaccel', 'qsv', '-qsv_device', '/dev/dri/renderD128', '-c:v', 'h264_qsv'],
      ...stdin,
      '-filter_complex',
      '[0:v:0]yadif=mode=send_frame:parity=auto:deint=interlaced,scale=w=-2:h=720,format=yuv420p[v0]',
      ...['-map', '[v0]', '-c:v:0', 'hevc_qsv', '-b:v:0', '2000000', '-maxrate:v:0', '2000000'],
      ...['-bufsize:v:0', '2000000', '-preset:v:0', 'veryfast', '-profile:v:0', 'main'],
      // HEVC level 4.1 is general_level_idc 123.
      ...['-level:v:0', '123', '-force_key_frames:v:0', 'expr:gte(t,n_forced*2)'],
      ...['-map', '0:a:0', '-c:a', 'aac', '-b:a', '64000'],
      ...['-program', 'program_num=1:title=v1:st=0:st=1'],
      ...out,
    ]);
  });

  it('coder: decodes on the CPU and encodes with the V4L2 memory-to-memory encoder', () => {
    const args = transcoderArgs(plan({ global: { hw: 'coder' }, video: { '0': track } }, { audio: false }));
    expect(args).toEqual([
      ...head,
      ...progress,
      ...stdin,
      '-filter_complex',
      '[0:v:0]scale=w=-2:h=720,format=yuv420p[v0]',
      ...['-map', '[v0]', '-c:v:0', 'h264_v4l2m2m', '-b:v:0', '2000000'],
      ...['-force_key_frames:v:0', 'expr:gte(t,n_forced*2)'],
      ...['-program', 'program_num=1:title=v1:st=0'],
      ...out,
    ]);
  });
});
