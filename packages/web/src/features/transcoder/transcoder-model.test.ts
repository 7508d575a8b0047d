import type { Transcoder } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { TRACK_PRESETS } from './transcoder-constants.js';
import {
  addTrack,
  audioCopyOff,
  audioCopyOn,
  audioUseDefaults,
  cornerOf,
  deviceIds,
  duplicateTrack,
  enabledDefaults,
  hardwareOptions,
  hasEncodedTrack,
  isEnabled,
  leaveHardware,
  nextTrackIndex,
  removeTrack,
  setDimension,
  setLogoCorner,
  setLogoPath,
  videoCopyOff,
  videoCopyOn,
  videoTracks,
} from './transcoder-model.js';

const preset360 = TRACK_PRESETS.find((p) => p.label === '700k 360p')!;

describe('enable', () => {
  it('turns on cpu hardware, 64 kbps aac without a sample rate and track 0 at 1 Mbps h264', () => {
    expect(enabledDefaults()).toEqual({
      global: { hw: 'cpu' },
      audio: { bitrate: 64000, codec: 'aac' },
      video: { '0': { bitrate: 1_000_000, codec: 'h264' } },
    });
    expect(isEnabled(enabledDefaults())).toBe(true);
    expect(isEnabled({})).toBe(false);
    expect(isEnabled(undefined)).toBe(false);
  });
});

describe('video tracks', () => {
  it('a new track takes the highest index plus one, 0 when there is none', () => {
    expect(nextTrackIndex(undefined)).toBe('0');
    expect(nextTrackIndex({ video: { '0': { bitrate: 1 }, '7': { bitrate: 1 }, '3': { bitrate: 1 } } })).toBe(
      '8',
    );
    const { transcoder, index } = addTrack({ audio: { bitrate: 64000 } });
    expect(index).toBe('0');
    expect(transcoder.video).toEqual({ '0': { bitrate: 1_000_000, codec: 'h264' } });
  });

  it('a preset track has its bitrate and height, the width following the aspect', () => {
    const { transcoder, index } = addTrack(enabledDefaults(), preset360);
    expect(index).toBe('1');
    expect(transcoder.video?.['1']).toEqual({
      bitrate: 700_000,
      codec: 'h264',
      size: { width: -1, height: 360 },
    });
    expect(TRACK_PRESETS.map((p) => [p.bitrate, p.height])).toEqual([
      [3_500_000, 1080],
      [2_500_000, 720],
      [1_500_000, 576],
      [1_000_000, 480],
      [700_000, 360],
    ]);
  });

  it('duplicate copies a track to the next index without sharing its objects', () => {
    const start = addTrack(enabledDefaults(), preset360).transcoder;
    const { transcoder, index } = duplicateTrack(start, '1');
    expect(index).toBe('2');
    expect(transcoder.video?.['2']).toEqual(start.video?.['1']);
    expect(transcoder.video?.['2']?.size).not.toBe(start.video?.['1']?.size);
    expect(videoTracks(transcoder).map(([i]) => i)).toEqual(['0', '1', '2']);
  });

  it('remove deletes a track; the last one takes the video block with it', () => {
    const two = addTrack(enabledDefaults()).transcoder;
    expect(Object.keys(removeTrack(two, '0').video ?? {})).toEqual(['1']);
    const none = removeTrack(removeTrack(two, '0'), '1');
    expect(none).toEqual({ global: { hw: 'cpu' }, audio: { bitrate: 64000, codec: 'aac' } });
    // The next track after a removal still counts from what is left.
    expect(nextTrackIndex(removeTrack(two, '0'))).toBe('2');
  });

  it('tracks sort by number, not by text', () => {
    const t: Transcoder = { video: { '10': { bitrate: 1 }, '2': { bitrate: 1 } } };
    expect(videoTracks(t).map(([i]) => i)).toEqual(['2', '10']);
  });
});

describe('size', () => {
  it('setting one dimension makes an auto other -1', () => {
    expect(setDimension(undefined, 'width', 1280)).toEqual({ width: 1280, height: -1 });
    expect(setDimension({ width: 0 }, 'height', 720)).toEqual({ width: -1, height: 720 });
    expect(setDimension({ width: 1280, height: -1 }, 'height', 720)).toEqual({ width: 1280, height: 720 });
  });

  it('both cannot be auto: clearing the last set one removes the size', () => {
    expect(setDimension({ width: 1280, height: 720 }, 'width', null)).toEqual({ width: -1, height: 720 });
    expect(setDimension({ width: -1, height: 720 }, 'height', null)).toBeUndefined();
    expect(setDimension({ width: -1, height: 720 }, 'height', -1)).toBeUndefined();
  });
});

describe('copy from origin', () => {
  it('a track copied keeps only bitrate copy; turning it off restores the track as it was', () => {
    const track = { bitrate: 700_000, codec: 'h264' as const, size: { width: -1, height: 360 } };
    const on = videoCopyOn(track);
    expect(on.track).toEqual({ bitrate: 'copy' });
    expect(videoCopyOff(on.track, on.backup)).toEqual(track);
  });

  it('without a backup (saved as copy) turning it off gives 1,000,000 bps', () => {
    expect(videoCopyOn({ bitrate: 'copy' }).backup).toBeUndefined();
    expect(videoCopyOff({ bitrate: 'copy' }, undefined)).toEqual({ bitrate: 1_000_000 });
  });

  it('audio copy clears the other audio fields and restores them when turned off', () => {
    const audio = { bitrate: 128_000, codec: 'opus' as const, sample_rate: 48000, channels: 2 };
    const on = audioCopyOn(audio);
    expect(on.audio).toEqual({ bitrate: 'copy' });
    expect(audioCopyOff(on.backup)).toEqual(audio);
    expect(audioCopyOff(undefined)).toEqual({ bitrate: 64000, codec: 'aac' });
  });

  it("'Use defaults' on removes the audio block; off gives 64 kbps aac", () => {
    expect(audioUseDefaults(true)).toBeNull();
    expect(audioUseDefaults(false)).toEqual({ bitrate: 64000, codec: 'aac' });
  });
});

describe('hardware', () => {
  const devices = [
    { id: 0, type: 'nvenc' as const },
    { id: 1, type: 'nvenc' as const },
    { id: 0, type: 'qsv' as const },
  ];

  it('offers cpu always, the types the server found, and the saved one', () => {
    expect(hardwareOptions([], [])).toEqual(['cpu']);
    expect(hardwareOptions(devices, [undefined])).toEqual(['cpu', 'qsv', 'nvenc']);
    expect(hardwareOptions([], ['coder', undefined])).toEqual(['cpu', 'coder']);
    expect(deviceIds(devices, 'nvenc')).toEqual([0, 1]);
    expect(deviceIds(devices, 'cpu')).toEqual([]);
  });

  it('leaving the selector on anything but nvenc clears external', () => {
    expect(leaveHardware({ global: { hw: 'cpu', external: true, deviceid: 1 } })).toEqual({
      global: { hw: 'cpu', deviceid: 1 },
    });
    const nvenc: Transcoder = { global: { hw: 'nvenc', external: true } };
    expect(leaveHardware(nvenc)).toBe(nvenc);
  });

  it('the selectors apply only when some track has a bitrate that is not copy', () => {
    expect(hasEncodedTrack({ audio: { bitrate: 64000 } })).toBe(false);
    expect(hasEncodedTrack({ video: { '0': { bitrate: 'copy' } } })).toBe(false);
    expect(hasEncodedTrack({ video: { '0': { bitrate: 'copy' }, '1': { bitrate: 700_000 } } })).toBe(true);
  });
});

describe('logo', () => {
  it('each corner is an overlay expression 10 px from its edges', () => {
    const at = (corner: Parameters<typeof setLogoCorner>[1]) => setLogoCorner({ path: '@a.png' }, corner);
    expect(at('top_left')).toEqual({ path: '@a.png', x: '10', y: '10' });
    expect(at('top_right')).toEqual({ path: '@a.png', x: 'main_w-overlay_w-10', y: '10' });
    expect(at('bottom_left')).toEqual({ path: '@a.png', x: '10', y: 'main_h-overlay_h-10' });
    expect(at('bottom_right')).toEqual({
      path: '@a.png',
      x: 'main_w-overlay_w-10',
      y: 'main_h-overlay_h-10',
    });
  });

  it('a corner is set, recognised and cleared', () => {
    const logo = setLogoCorner({ path: '@a.png' }, 'bottom_right');
    expect(cornerOf(logo)).toBe('bottom_right');
    expect(setLogoCorner(logo, null)).toEqual({ path: '@a.png' });
    expect(cornerOf({ x: '5', y: '5' })).toBeUndefined();
  });

  it('the path is trimmed; empty removes the logo', () => {
    expect(setLogoPath({ path: '@a.png', x: '10', y: '10' }, '  /srv/b.png ')).toEqual({
      path: '/srv/b.png',
      x: '10',
      y: '10',
    });
    expect(setLogoPath({ path: '@a.png' }, '   ')).toBeUndefined();
  });
});
