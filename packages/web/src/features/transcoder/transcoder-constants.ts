/** The Transcoder tab's lists and defaults (spec 001 §9 "Transcoder"). */

export const HARDWARE = ['cpu', 'qsv', 'nvenc', 'coder'] as const;
export type Hardware = (typeof HARDWARE)[number];

/** Deinterlace modes; the last three only with nvenc. */
export const DEINTERLACE_MODES = ['off', 'on'] as const;
export const NVENC_DEINTERLACE_MODES = ['bob', 'adaptive', 'weave'] as const;

export const AUDIO_CODECS = ['aac', 'mp2a', 'opus'] as const;
/** 0 means bypass: the source's rate is kept. */
export const SAMPLE_RATES = [0, 8000, 16000, 32000, 44100, 48000] as const;
export const CHANNELS = [1, 2, 4, 5, 6, 8] as const;

export const VIDEO_CODECS = ['h264', 'hevc', 'mp2v'] as const;
export type VideoCodec = (typeof VIDEO_CODECS)[number];
export const FPS = [24, 25, 30, 50, 60] as const;
export const BFRAMES = [0, 1, 2, 3] as const;
export const REFS = [1, 2, 3, 4, 5, 6] as const;

export const SOFTWARE_PRESETS = ['veryslow', 'slower', 'slow', 'medium', 'fast', 'faster', 'veryfast'];
export const NVENC_PRESETS = [
  'bd',
  'default',
  'll',
  'llhq',
  'loseless',
  'loselesshq',
  'medium',
  'veryfast',
  'zerolatency',
];

export const PROFILES: Record<VideoCodec, readonly string[]> = {
  h264: ['baseline', 'high', 'main'],
  hevc: ['main', 'main10'],
  mp2v: ['high', 'main', 'simple'],
};

/** H.264 levels 1 to 5.2 and HEVC levels 1 to 6.2, as the standards number them. */
export const LEVELS: Record<VideoCodec, readonly string[]> = {
  h264: [
    '1',
    '1.1',
    '1.2',
    '1.3',
    '2',
    '2.1',
    '2.2',
    '3',
    '3.1',
    '3.2',
    '4',
    '4.1',
    '4.2',
    '5',
    '5.1',
    '5.2',
  ],
  hevc: ['1', '2', '2.1', '3', '3.1', '4', '4.1', '5', '5.1', '5.2', '6', '6.1', '6.2'],
  mp2v: ['high', 'high1440', 'low', 'main'],
};

export const NEW_AUDIO_BITRATE = 64_000;
export const NEW_AUDIO_CODEC = 'aac';
export const NEW_VIDEO_BITRATE = 1_000_000;
export const NEW_VIDEO_CODEC = 'h264';

/** 'Add video track' presets: the height fixed, the width following the source's aspect (-1). */
export const TRACK_PRESETS = [
  { label: '3500k 1080p', bitrate: 3_500_000, height: 1080 },
  { label: '2500k 720p', bitrate: 2_500_000, height: 720 },
  { label: '1500k 576p', bitrate: 1_500_000, height: 576 },
  { label: '1000k 480p', bitrate: 1_000_000, height: 480 },
  { label: '700k 360p', bitrate: 700_000, height: 360 },
] as const;
export type TrackPreset = (typeof TRACK_PRESETS)[number];

/** Bitrates are typed in K and stored in bits per second. */
export const BITRATE_FACTOR = 1000;

/** Browser local storage key of the copied settings. */
export const CLIPBOARD_KEY = 'transcoder';

/** Spec 001 §9: after the no-track confirmation (or straight away when tracks exist) save waits 100 ms. */
export const SAVE_DELAY_MS = 100;

export const NO_TRACKS_CONFIRMATION =
  'No video tracks configured (only audio will be in the output). Save this configuration?';
export const DISABLE_CONFIRMATION =
  'Config will be reseted and saved, no restoration options available. Reset and save?';
