import { z } from 'zod';
import {
  auth,
  cache,
  drm,
  extraOptions,
  itemDvr,
  logo,
  meta,
  positiveInt,
  protocols,
  seconds,
  thumbnails,
} from './common.js';
import { transcoder } from './transcoder.js';

/**
 * A value sent as an HTTP request header (ffmpeg's -user_agent, the tshttp request): a CR or LF
 * would end the header and start one of the value's choosing, so no control character is taken.
 */
const headerValue = (field: string) =>
  z
    .string()
    .max(1024, `${field} must be at most 1024 characters`)
    // eslint-disable-next-line no-control-regex -- control characters are what is refused here
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), {
      message: `${field} must not contain control characters (CR, LF, tab…): they would split the request header`,
    });

/** One input of a stream (spec 001 §3 "Input source entry"); free extra options are kept as keys. */
export const sourceEntry = z.looseObject({
  url: z.string().min(1, 'a source url must not be empty'),
  priority: z.number().int().optional(),
  source_timeout: seconds.optional(),
  user_agent: headerValue('user_agent').optional(),
  buffer: z.number().int().optional(),
  rtp: z.literal('udp').optional(),
  tracks: z.string().optional(),
  program: z.number().int().optional(),
  pids: z.string().optional(),
  allow_subtitles: z.enum(['true', 'false']).optional(),
  dvbsubs_ocr: z.enum(['true', 'false']).optional(),
});
export type SourceEntry = z.infer<typeof sourceEntry>;

/** urls accepts plain strings too (spec 000 §3) and always stores {url} objects. */
export const sourceList = z.array(
  z.union([
    z
      .string()
      .min(1, 'a source url must not be empty')
      .transform((url) => ({ url })),
    sourceEntry,
  ]),
);

export const push = z.looseObject({ url: z.string().min(1, 'a push url must not be empty') });

export const stream = z.looseObject({
  name: z.string().optional(),
  title: z.string().optional(),
  position: positiveInt.optional(),
  urls: sourceList.optional(),
  static: z.boolean().optional(),
  disabled: z.boolean().optional(),
  publish_enabled: z.boolean().optional(),
  meta: meta.optional(),
  protocols: protocols.optional(),
  prefix: z.string().optional(),
  url_prefix: z.string().optional(),
  password: z.string().optional(),
  max_bitrate: positiveInt.optional(),
  on_publish: z.string().optional(),
  source_timeout: seconds.optional(),
  cluster_key: z.string().optional(),
  /** `cluster_ingest;`: the stream's sources run on one server of the cluster; the others pull from it (docs/media.md). */
  cluster_ingest: z.boolean().optional(),
  backup: z.string().optional(),
  clients_timeout: seconds.optional(),
  max_sessions: positiveInt.optional(),
  pushes: z.array(push).optional(),
  prepush: z.union([z.literal(false), z.number().min(0)]).optional(),
  provider: z.string().optional(),
  add_audio_only: z.boolean().optional(),
  segment_count: z.number().int().min(1).optional(),
  segment_duration: z.number().int().min(1).optional(),
  thumbnails: thumbnails.optional(),
  dvr: itemDvr.optional(),
  external_dvr: z.boolean().optional(),
  cache: cache.optional(),
  transcoder: transcoder.optional(),
  type: z.string().optional(),
  auth: auth.optional(),
  drm: drm.optional(),
  logo: logo.optional(),
  /** The ad schedule (a name in the top-level ad_schedules) whose slots insert ads into this stream. */
  ad_schedule: z.string().min(1).optional(),
  extra: extraOptions.optional(),
});
export type Stream = z.infer<typeof stream>;
