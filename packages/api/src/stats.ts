import { z } from 'zod';

/** A media track as the engine reports it (spec 000 §3 "Track"). */
export const track = z.looseObject({
  track_id: z.string(),
  content: z.enum(['video', 'audio', 'text', 'metadata']),
  codec: z.string(),
  lang: z.string().optional(),
  bitrate: z.number().optional(),
  fps: z.number().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  profile: z.string().optional(),
  level: z.string().optional(),
  channels: z.number().optional(),
  sample_rate: z.number().optional(),
});
export type Track = z.infer<typeof track>;

export const mediaInfo = z.looseObject({
  width: z.number().optional(),
  height: z.number().optional(),
  tracks: z.array(track),
});
export type MediaInfo = z.infer<typeof mediaInfo>;

export const dvrInfo = z.looseObject({
  depth: z.number().optional(),
  disk_size: z.number().optional(),
  duration: z.number().optional(),
  from: z.number().optional(),
  ranges: z.array(z.looseObject({ from: z.number(), duration: z.number() })).optional(),
});

/** One push of a stream (issue 4 Pushes): where it goes and how it fares. */
export const pushStats = z.looseObject({
  url: z.string(),
  /** running: sending; retrying: waiting to start again after a failure; unsupported: no way to push there. */
  status: z.enum(['starting', 'running', 'retrying', 'unsupported']),
  /** Bytes handed to the push since the stream started. */
  bytes: z.number(),
  /** Restarts after failures. */
  retries: z.number(),
  error: z.string().optional(),
  /** When the current attempt started (ms since epoch). */
  started_at: z.number().optional(),
});
export type PushStats = z.infer<typeof pushStats>;

/** Runtime figures of one stream (spec 000 §3 "Stream stats"); every figure is measured. */
export const streamStats = z.looseObject({
  alive: z.boolean().optional(),
  running: z.boolean().optional(),
  /** kbit/s of the input, measured over the last seconds. */
  bitrate: z.number().optional(),
  bufferings: z.number().optional(),
  bytes_in: z.number().optional(),
  bytes_out: z.number().optional(),
  client_count: z.number().optional(),
  dvr_enabled: z.boolean().optional(),
  dvr_info: dvrInfo.optional(),
  /** Why the stream's archive can't be written or read now (a root that can't be created, a full disk); live playback goes on. */
  dvr_error: z.string().optional(),
  /** Why files of the stream's ad schedule are skipped (missing, can't be conformed); the stream stays live. */
  ad_error: z.string().optional(),
  input_error_rate: z.number().optional(),
  input_media_info: mediaInfo.optional(),
  media_info: mediaInfo.optional(),
  last_access_at: z.number().optional(),
  last_dts: z.number().optional(),
  /** ms the stream has been running. */
  lifetime: z.number().optional(),
  out_bandwidth: z.number().optional(),
  position: z.number().optional(),
  remote: z.boolean().optional(),
  retry_count: z.number().optional(),
  running_transcoder: z.boolean().optional(),
  source_error: z.string().optional(),
  start_running_at: z.number().optional(),
  /** ms since the last packet arrived. */
  ts_delay: z.number().optional(),
  url: z.string().optional(),
  /** The stream's backup (fallback video) is playing because every source is down; absent without a backup. */
  backup: z.boolean().optional(),
  published_from: z.string().optional(),
  published_via: z.string().optional(),
  pushes: z.array(pushStats).optional(),
});
export type StreamStats = z.infer<typeof streamStats>;

/** One NVIDIA card as nvidia-smi reads it (nvidia_monitor); a figure the card can't report is absent. */
export const nvidiaGpu = z.looseObject({
  index: z.number(),
  name: z.string(),
  utilization_percent: z.number().optional(),
  memory_used_mb: z.number().optional(),
  memory_total_mb: z.number().optional(),
  temperature_c: z.number().optional(),
  /** NVENC encodes running now. */
  encoder_sessions: z.number().optional(),
});
export type NvidiaGpu = z.infer<typeof nvidiaGpu>;
/** While nvidia_monitor is on: the cards, or `error` 'no NVIDIA GPU' (nvidia-smi missing, failing, or listing none). */
export const nvidiaState = z.looseObject({ gpus: z.array(nvidiaGpu), error: z.string().optional() });
export type NvidiaState = z.infer<typeof nvidiaState>;
/** A hardware coder of a chassis server (spec 002 §7 "Chassis coder"). */
export const chassisCoder = z.looseObject({
  coder: z.number(),
  status: z.enum(['offline', 'booting', 'working']),
  /** Boot stage, 0 to 9. */
  stage: z.number(),
  uptime: z.number(),
  streams: z.array(z.looseObject({ name: z.string() })),
});
export type ChassisCoder = z.infer<typeof chassisCoder>;

/** The server's own figures, at the top level of read_config (spec 000 §3 "Server stats"). */
export const serverStats = z.looseObject({
  version: z.string(),
  build: z.number(),
  hostname: z.string().optional(),
  uptime: z.number(),
  total_streams: z.number(),
  online_streams: z.number(),
  total_clients: z.number(),
  input_kbit: z.number(),
  output_kbit: z.number(),
  opened_files: z.number(),
  retroview_enabled: z.boolean(),
  retroview_configured: z.boolean(),
  next_version: z.string().optional(),
  /** 'running', plus error_* keys carrying strings the console shows as notifications. */
  status: z.record(z.string(), z.string()),
  disks: z.array(z.unknown()).optional(),
  partitions: z.array(z.looseObject({ path: z.string(), usage: z.number() })).optional(),
  nvidia: nvidiaState.optional(),
  /** A chassis server's coders (spec 000 §3 "chassis coders"); this server has none and never sends it. */
  coders: z.array(chassisCoder).optional(),
});
export type ServerStats = z.infer<typeof serverStats>;
