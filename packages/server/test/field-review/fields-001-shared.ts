import { applied, IN_PROGRESS, notApplied, type Review } from './review.js';

/** Sub-entities several sections share (spec 001 §3); the section is part of each row's path. */

const DRM_MARK = 'aria-label="DRM not applied"';
const vendorOnly = (key: string): Review =>
  notApplied(
    `${key} belongs to DRM vendors this server does not apply (only aes128); the DRM section marks the vendor`,
    'auth/DrmSection.tsx',
    DRM_MARK,
  );

export const DRM: Record<string, Review> = {
  vendor: applied('auth-drm-aes128.test.ts', 'encrypts segments with its own key'),
  keyserver: applied('auth-drm-aes128.test.ts', 'encrypts segments with its own key'),
  iv: applied('auth-drm-aes128.test.ts', 'encrypts segments with its own key'),
  ...Object.fromEntries(
    [
      'resource_id',
      'user_keyserver',
      'aes_key',
      'signer',
      'content_id',
      'enc_token',
      'user',
      'password',
      'ic_host',
      'account_id',
      'user_name',
      'userkey',
    ].map((key) => [key, vendorOnly(key)]),
  ),
};

export const AUTH: Record<string, Review> = {
  url: applied('auth-playback.test.ts', 'HLS: the denied token, and no token, get 403 and no media'),
  extra: applied('auth-playback.test.ts', 'HLS: the allowed token gets the playlists and segments'),
  domains: applied('auth-rules.test.ts', 'allowed domains: only players on those sites'),
  allowed_countries: applied('auth-rules.test.ts', 'blocks and allows countries by the GeoIP answer'),
  disallowed_countries: applied('auth-rules.test.ts', 'blocks and allows countries by the GeoIP answer'),
  max_sessions: applied(
    'media-sessions.test.ts',
    'applies the protocol switches and max_sessions without a restart',
  ),
};

/** meta.iptv lists the item in the IPTV playlist; comment and drm_id are notes shown back. */
export const META: Record<string, Review> = {
  comment: applied('e2e/stream-overview.spec.ts', 'saves title and description to the config file'),
  drm_id: applied('auth-drm-aes128.test.ts', 'encrypts segments with its own key'),
  iptv: applied('iptv.test.ts', 'a playlist lists the IPTV streams in order'),
};

const NO_REPLICATION = 'this server does not replicate DVR archives to another server';
export const itemDvr = (form: string): Record<string, Review> => ({
  root: applied('dvr-recording.test.ts', 'writes the segments under ROOT/NAME in the layout'),
  reference: applied('dvr-storages.test.ts', 'records a `dvr @main` stream under the storage root'),
  disk_limit: applied('src/dvr/retention-policy.test.ts', 'disk_limit: how many bytes to free'),
  disk_space: applied(
    'src/dvr/retention-policy.test.ts',
    'disk_space: deletes the oldest until the archive fits',
  ),
  dvr_limit: applied('dvr-retention.test.ts', 'dvr_limit deletes the oldest segments and nothing else'),
  dvr_replicate: notApplied(NO_REPLICATION, form),
  replication_port: notApplied(NO_REPLICATION, form),
});

export const THUMBNAILS: Record<string, Review> = {
  enabled: applied('media-preview.test.ts', 'shows the newest keyframe'),
  url: notApplied('previews are always made from the stream itself; a preview url is not fetched'),
};

const NO_CACHE = 'this server keeps no SSD segment cache: archive segments are read from the DVR root';
export const cache = (form: string): Record<string, Review> => ({
  path: notApplied(NO_CACHE, form),
  disk_limit: notApplied(NO_CACHE, form),
  time_limit: notApplied(NO_CACHE, form),
});

/** An input source entry (spec 001 §3), of a stream or of a location's urls. */
export const SOURCE_ENTRY: Record<string, Review> = {
  url: applied('media-sources.test.ts', 'reads MPEG-TS over HTTP (tshttp://)'),
  priority: applied('src/engine/source-url.test.ts', 'sorts by priority, lower first'),
  source_timeout: applied('media-failover.test.ts', 'moves to the second url when the first dies'),
  user_agent: applied('src/engine/ffmpeg/args.test.ts', 'remuxes HLS with the configured user agent'),
  buffer: notApplied(
    'HLS sources are read as they come; no extra buffer is applied',
    'stream-item/input/SourceSchemePanel.tsx',
  ),
  rtp: applied('rtsp-clients.test.ts', 'an RTSP source honours rtp=udp and tracks'),
  tracks: applied('rtsp-clients.test.ts', 'an RTSP source honours rtp=udp and tracks'),
  program: notApplied(IN_PROGRESS),
  pids: notApplied(IN_PROGRESS),
  allow_subtitles: notApplied(IN_PROGRESS),
  dvbsubs_ocr: notApplied(IN_PROGRESS),
};
