import { applied, notApplied, type Review } from './review.js';

/** Sub-entities several sections share (spec 001 §3); the section is part of each row's path. */

const DRM_MARK = 'aria-label="DRM not applied"';
const vendorOnly = (key: string): Review =>
  notApplied(
    `${key} belongs to DRM vendors this server does not apply (only aes128); the DRM section marks the vendor`,
    'auth/DrmSection.tsx',
    DRM_MARK,
  );

const AES128 = 'encrypts segments with its own key; decrypted they are H.264 in TS, and the playlist plays';
const LOCATION_DRM = "takes a published stream's DRM from its publishing location";
const vendorFields = (vendor: Review, keyserver: Review): Record<string, Review> => ({
  vendor,
  keyserver,
  ...Object.fromEntries(
    [
      'resource_id',
      'user_keyserver',
      'aes_key',
      'iv',
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
});

/** drm of a stream, and of a location (its published streams take it: drm/hls-drm.ts drmFor). */
export const DRM = vendorFields(
  applied('auth-drm-aes128.test.ts', AES128),
  applied('auth-drm-aes128.test.ts', 'takes the key from drm.keyserver, fetched once per key period'),
);
export const LOCATION_DRM_FIELDS = vendorFields(
  applied('src/drm/hls-drm.test.ts', LOCATION_DRM),
  applied('src/drm/hls-drm.test.ts', LOCATION_DRM),
);

/**
 * auth of an item. One evaluator (auth/play-auth.ts) reads the item's auth whatever the section
 * (auth/auth-source.ts picks it); `url` and `max_sessions` name the section's own test, the other
 * keys the evaluator's test on a stream.
 */
export const auth = (url: Review, maxSessions: Review): Record<string, Review> => ({
  url,
  extra: applied('auth-playback.test.ts', 'HLS: the allowed token gets the playlists and segments'),
  domains: applied('auth-rules.test.ts', 'allowed domains: only players on those sites'),
  allowed_countries: applied('auth-rules.test.ts', 'blocks and allows countries by the GeoIP answer'),
  disallowed_countries: applied('auth-rules.test.ts', 'blocks and allows countries by the GeoIP answer'),
  max_sessions: maxSessions,
});

const NOT_IPTV = 'the IPTV playlist lists configured streams only (the console offers IPTV on streams only)';
const NO_DRM_HERE = 'this section has no DRM of its own, so a drm_id here is sent nowhere';
/** meta: comment is the operator's description, shown back on the item's page. */
export const meta = (comment: Review, drmId: Review, iptv: Review): Record<string, Review> => ({
  comment,
  drm_id: drmId,
  iptv,
});
export const STREAM_META = meta(
  applied('e2e/stream-overview.spec.ts', 'saves title and description to the config file'),
  applied('auth-drm-aes128.test.ts', 'takes the key from drm.keyserver, fetched once per key period'),
  applied('iptv.test.ts', 'a playlist lists the IPTV streams in order'),
);
export const LOCATION_META = meta(
  applied(
    'e2e/location-page.spec.ts',
    'waits for an unknown location; edits overview, input, output and process',
  ),
  applied('src/drm/hls-drm.test.ts', LOCATION_DRM),
  notApplied(NOT_IPTV),
);
export const MIRROR_META = meta(
  applied('e2e/mirror-item.spec.ts', 'the mirror page edits overview, input, process and output'),
  notApplied(NO_DRM_HERE),
  notApplied(NOT_IPTV),
);
export const VOD_META = meta(
  applied('e2e/vod-pages.spec.ts', "overview: description, a 'New path' row"),
  notApplied(NO_DRM_HERE),
  notApplied(NOT_IPTV),
);

const NO_REPLICATION = 'this server does not replicate DVR archives to another server';
/** dvr of an item: `root` names the section's recording test; the limits are resolved per item alike. */
export const itemDvr = (form: string, root: Review): Record<string, Review> => ({
  root,
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

export const thumbnails = (enabled: Review): Record<string, Review> => ({
  enabled,
  url: notApplied('previews are always made from the stream itself; a preview url is not fetched'),
});

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
  source_timeout: applied(
    'src/engine/source-timeout.test.ts',
    "a source's own source_timeout wins over the stream's",
  ),
  user_agent: applied('src/engine/ffmpeg/args.test.ts', 'remuxes HLS with the configured user agent'),
  buffer: notApplied(
    'HLS sources are read as they come; no extra buffer is applied',
    'stream-item/input/SourceSchemePanel.tsx',
  ),
  rtp: applied('rtsp-clients.test.ts', 'an RTSP source honours rtp=udp and tracks'),
  tracks: applied('rtsp-clients.test.ts', 'an RTSP source honours rtp=udp and tracks'),
  program: applied(
    'media-ts-programs.test.ts',
    'program=2 takes program 2 alone; its subtitle tracks reach HLS segments with their languages',
  ),
  pids: applied(
    'media-ts-programs.test.ts',
    'pids=256 takes that track alone: program 1 picture, without its tone',
  ),
  allow_subtitles: applied(
    'media-ts-programs.test.ts',
    'allow_subtitles=false drops the subtitle tracks, the PMT listing the picture alone',
  ),
  dvbsubs_ocr: notApplied(
    'DVB bitmap subtitles are carried in MPEG-TS and HLS as they come, not converted to WebVTT (that needs OCR); teletext subtitles become WebVTT in HLS without this option (media-webvtt.test.ts)',
    'stream-item/input/SourceSchemePanel.tsx',
  ),
};
