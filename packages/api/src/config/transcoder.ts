import { z } from 'zod';
import { extraOptions } from './common.js';

/** Transcoder settings (spec 001 §3). Bitrates are bits per second, or 'copy' to pass through. */
const bitrate = z.union([z.number().positive('bitrate must be greater than zero'), z.literal('copy')]);

export const transcoderVideoTrack = z.looseObject({
  bitrate,
  codec: z.enum(['h264', 'hevc', 'mp2v']).optional(),
  preset: z.string().optional(),
  profile: z.string().optional(),
  level: z.string().optional(),
  size: z.looseObject({ width: z.number().int().optional(), height: z.number().int().optional() }).optional(),
  logo: z
    .looseObject({
      path: z.string(),
      x: z.string().optional(),
      y: z.string().optional(),
      r: z.string().optional(),
    })
    .optional(),
  alogo: z
    .looseObject({
      path: z.string(),
      x: z.string().optional(),
      y: z.string().optional(),
      r: z.string().optional(),
    })
    .optional(),
  fps: z.number().positive().optional(),
  bframes: z.number().int().min(0).max(3).optional(),
  refs: z.number().int().min(1).max(6).optional(),
  g: z.number().int().positive().optional(),
  gop: z.number().int().positive().optional(),
  disable_cgop: z.boolean().optional(),
  aspect: z.looseObject({ x: z.number().positive(), y: z.number().positive() }).optional(),
  extra: extraOptions.optional(),
});

export const transcoderAudio = z.looseObject({
  bitrate,
  codec: z.enum(['aac', 'mp2a', 'opus']).optional(),
  sample_rate: z.number().int().min(0).optional(),
  channels: z.number().int().positive().optional(),
});

export const transcoder = z.looseObject({
  global: z
    .looseObject({
      hw: z.enum(['cpu', 'qsv', 'nvenc', 'coder']).optional(),
      deviceid: z.number().int().optional(),
      external: z.boolean().optional(),
      seamless: z.boolean().optional(),
    })
    .optional(),
  decoder: z
    .looseObject({
      deinterlace: z.union([z.enum(['off', 'on', 'bob', 'adaptive', 'weave']), z.boolean()]).optional(),
      drop_second: z.boolean().optional(),
      threads: z.number().int().positive().optional(),
      crop: z
        .looseObject({
          left: z.number().positive(),
          top: z.number().positive(),
          width: z.number().positive(),
          height: z.number().positive(),
        })
        .optional(),
    })
    .optional(),
  audio: transcoderAudio.optional(),
  video: z
    .record(z.string().regex(/^\d+$/, 'a video track is keyed by its index'), transcoderVideoTrack)
    .optional(),
});
export type Transcoder = z.infer<typeof transcoder>;
