import { z } from 'zod';
import { mediaName, meta, port, portList } from './common.js';
import {
  authBackend,
  credentials,
  dvr,
  location,
  mirror,
  peer,
  plugins,
  vod,
  webScript,
} from './sections.js';
import { stream } from './stream.js';
import { adSchedules } from '../ad-schedules.js';

export const logLevels = ['debug', 'notice', 'error'] as const;

const keyed = <T extends z.ZodType>(item: T) => z.record(mediaName, item);

/**
 * The whole server config (spec 000 §3), as read_config returns it without stats and as the config
 * file holds it. Every section is optional; keys unknown here are kept.
 */
export const config = z.looseObject({
  http: portList.optional(),
  https: portList.optional(),
  admin_http: portList.optional(),
  admin_https: portList.optional(),
  /**
   * Seconds browsers keep to HTTPS once they saw it here (the Strict-Transport-Security max-age),
   * sent only on answers over TLS; absent sends no HSTS header. 0 tells browsers to forget it.
   */
  hsts_max_age_seconds: z.number().int().min(0, 'hsts_max_age_seconds is at least 0').optional(),
  /** Console and API requests on a plain HTTP port are redirected to the first HTTPS port (playback is not). */
  https_redirect: z.boolean().optional(),
  /** The ACME directory POST /letsencrypt orders from; absent: LetsEncrypt's production one. */
  letsencrypt_directory: z.url({ protocol: /^https?$/ }).optional(),
  rtmp: port.optional(),
  rtmps: port.optional(),
  rtsp: port.optional(),
  rtsps: port.optional(),
  mysql: port.optional(),
  snmp: port.optional(),
  /** The SNMP v2c community the `snmp` port answers (required for it to open; docs/api.md "SNMP"). */
  snmp_community: z.string().min(1, 'snmp_community is not empty').optional(),
  api: port.optional(),
  loglevel: z.enum(logLevels).optional(),
  /** Where POST sendlogs sends the diagnostics bundle (docs/config.md); absent: the console downloads it. */
  support_url: z.url({ protocol: /^https?$/ }).optional(),
  /** `[user@]host[:port]` the support SSH access tunnels to (`ssh -N -R`); absent: the toggle says so. */
  support_ssh: z
    .string()
    .regex(
      /^(?:[A-Za-z0-9][A-Za-z0-9._-]*@)?[A-Za-z0-9][A-Za-z0-9.-]*(?::\d{1,5})?$/,
      'support_ssh is [user@]host[:port]',
    )
    .optional(),
  cluster_key: z.string().optional(),
  /** A scraper sends it as `Authorization: Bearer TOKEN` to read GET /metrics without a console login. */
  metrics_token: z.string().min(1, 'metrics_token is not empty').optional(),
  hostname: z.string().optional(),
  edit_auth: credentials.optional(),
  view_auth: credentials.optional(),
  meta: meta.optional(),
  nvidia_monitor: z.boolean().optional(),
  pulsedb: z.string().optional(),
  session_log: z.string().optional(),
  /** Sessions older than this many days are deleted from the session log (default 90). */
  session_log_days: z.number().int().min(1, 'session_log_days is at least 1').optional(),
  /** Past this many megabytes the session log's oldest sessions are deleted (default 256). */
  session_log_max_mb: z.number().int().min(1, 'session_log_max_mb is at least 1').optional(),
  /**
   * Play sessions one client address may have open, and start in any minute (default 100): a
   * client cycling tokens or user agents gets 429 past it instead of a new session each request.
   */
  max_sessions_per_ip: z.number().int().min(1, 'max_sessions_per_ip is at least 1').optional(),
  /** Seconds a play session may be quiet before it ends and is logged (default 20): an HLS player's session spans its requests. */
  session_idle_seconds: z.number().int().min(1, 'session_idle_seconds is at least 1').optional(),
  /** Seconds between a mirror's asks of its origin for its streams (default 2); a stream unlisted for 5 asks goes. */
  mirror_poll_seconds: z.number().int().min(1, 'mirror_poll_seconds is at least 1').optional(),
  /** Seconds between polls of each `peer` for its figures and streams (default 2); each poll is bounded to 2 s. */
  peer_poll_seconds: z.number().int().min(1, 'peer_poll_seconds is at least 1').optional(),
  /** Seconds between asks of each peer for its cluster ingest state (default 1; docs/config.md). */
  cluster_ingest_poll_seconds: z.number().min(0.2, 'cluster_ingest_poll_seconds is at least 0.2').optional(),
  /** etcd endpoints (http://HOST:PORT): cluster ingest takes a lease per stream there (coordinated mode). */
  cluster_etcd: z.array(z.url({ protocol: /^https?$/ })).optional(),
  /** Seconds an etcd lease lives without keep-alive (default 3): how soon a dead capturer's streams move. */
  cluster_lease_seconds: z.number().int().min(2, 'cluster_lease_seconds is at least 2').optional(),
  /**
   * Fixed countries for client addresses (ip → two capital letters), answered before the GeoIP
   * database: an operator's correction for an address it gets wrong, or a country for a local one.
   */
  geoip_overrides: z
    .record(z.string().min(1), z.string().regex(/^[A-Z]{2}$/, 'a country is two capital letters'))
    .optional(),
  /** bits per second (spec 000 §9 unit factors: megabits 1048576). */
  total_bandwidth: z.number().min(0).optional(),
  streams: keyed(stream).optional(),
  lives: keyed(location).optional(),
  sources: z.record(z.string().regex(/^\d+$/, 'a mirror is keyed by its position'), mirror).optional(),
  vods: keyed(vod).optional(),
  dvrs: keyed(dvr).optional(),
  auth_backends: keyed(authBackend).optional(),
  peers: z.record(z.string().min(1), peer).optional(),
  plugins: plugins.optional(),
  web_scripts: z.record(z.string().min(1), webScript).optional(),
  /** Ad insertion schedules (spec 002 §3; docs/config.md "Ad schedules"); streams name one in `ad_schedule`. */
  ad_schedules: adSchedules.optional(),
});
export type Config = z.infer<typeof config>;

/** Sections whose entries keep a list order in a `position` field. */
export const orderedSections = [
  'streams',
  'lives',
  'sources',
  'vods',
  'dvrs',
  'auth_backends',
  'peers',
  'web_scripts',
] as const;
export type OrderedSection = (typeof orderedSections)[number];

/** The key field each keyed section copies its key into (sources are keyed by position). */
export const sectionKeyField: Record<OrderedSection, string> = {
  streams: 'name',
  lives: 'prefix',
  sources: 'position',
  vods: 'prefix',
  dvrs: 'name',
  auth_backends: 'name',
  peers: 'name',
  web_scripts: 'prefix',
};
