import { describe, expect, it } from 'vitest';
import type { Probe } from '../vod/ffprobe-tracks.js';
import { conformArgs } from './conform-args.js';
import { type AdTarget, planTracks, snapFps } from './conform.js';

const TARGET: AdTarget = {
  video: { codec: 'h264', width: 1280, height: 720, fps: 25 },
  audio: { codec: 'aac', sampleRate: 48000, channels: 2 },
};
const video = {
  index: 0,
  codec_type: 'video',
  codec_name: 'h264',
  width: 1280,
  height: 720,
  avg_frame_rate: '25/1',
  pix_fmt: 'yuv420p',
};
const audio = {
  index: 1,
  codec_type: 'audio',
  codec_name: 'aac',
  profile: 'LC',
  sample_rate: '48000',
  channels: 2,
};
const plan = (streams: object[], target = TARGET) => planTracks({ streams } as Probe, target, 'ad.mp4');

describe('planTracks: what is copied and what is re-encoded', () => {
  it('copies tracks that match the stream', () => {
    expect(plan([video, audio])).toMatchObject({
      video: { index: 0, copy: true },
      audio: { index: 1, copy: true },
    });
  });

  it('re-encodes what a live decoder would choke on: size, rate, 10-bit, HE-AAC, other rate or channels', () => {
    expect(plan([{ ...video, width: 640 }, audio]).video?.copy).toBe(false);
    expect(plan([{ ...video, avg_frame_rate: '30000/1001' }, audio]).video?.copy).toBe(false);
    expect(plan([{ ...video, avg_frame_rate: '25000/1000' }, audio]).video?.copy).toBe(true);
    expect(plan([{ ...video, pix_fmt: 'yuv420p10le' }, audio]).video?.copy).toBe(false);
    expect(plan([{ ...video, codec_name: 'hevc' }, audio]).video?.copy).toBe(false);
    expect(plan([video, { ...audio, profile: 'HE-AAC' }]).audio?.copy).toBe(false);
    expect(plan([video, { ...audio, sample_rate: '44100' }]).audio?.copy).toBe(false);
    expect(plan([video, { ...audio, channels: 1 }]).audio?.copy).toBe(false);
  });

  it('skips cover art, gives a silent ad silence, refuses an ad without video for a video stream', () => {
    const cover = { ...video, index: 2, disposition: { attached_pic: 1 } };
    expect(plan([cover, video, audio]).video?.index).toBe(0);
    expect(plan([video]).audio).toMatchObject({ index: undefined, copy: false });
    expect(() => plan([audio])).toThrow(/no video track/);
    // An audio-only stream: the ad's audio alone.
    expect(plan([video, audio], { audio: TARGET.audio })).toEqual({
      video: undefined,
      audio: { index: 1, copy: true, target: TARGET.audio },
    });
  });
});

describe('snapFps: one cached copy per real frame rate', () => {
  it('snaps a measured rate to the broadcast rate it wobbles around, else to a whole number', () => {
    const at = (fps: number) => snapFps({ video: { codec: 'h264', width: 2, height: 2, fps } }).video?.fps;
    expect(at(24.98)).toBe(25);
    expect(at(25.01)).toBe(25);
    expect(at(29.97)).toBe(30000 / 1001);
    expect(at(30)).toBe(30);
    expect(at(29.99)).toBe(30);
    expect(at(59.9)).toBe(60000 / 1001);
    expect(at(12.4)).toBe(12);
    expect(snapFps({ audio: TARGET.audio! })).toEqual({ audio: TARGET.audio });
  });

  it('hands ffmpeg an NTSC rate as a fraction', () => {
    const args = conformArgs('in.mp4', 'out.ts', {
      video: { index: 0, copy: false, target: { codec: 'h264', width: 2, height: 2, fps: 30000 / 1001 } },
    });
    expect(args[args.indexOf('-vf') + 1]).toContain('fps=30000/1001');
  });
});
