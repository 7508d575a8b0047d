import {
  auth,
  cache,
  DRM,
  itemDvr,
  LOCATION_DRM_FIELDS,
  LOCATION_META,
  MIRROR_META,
  SOURCE_ENTRY,
  STREAM_META,
  thumbnails,
} from './fields-001-shared.js';
import { TRANSCODER } from './fields-001-transcoder.js';
import { applied, notApplied, type Review, under } from './review.js';

const HANDED = (title: string) => applied('src/engine/item-fields.test.ts', title);
const LOCATION_HANDS = "a published stream takes its location's previews and session limit";
const MIRROR_HANDS = "a mirrored stream takes its mirror's previews and play authorization";
const NO_STREAM_LOGO =
  'a logo is burnt in by the transcoder’s video tracks (transcoder.video.N.logo); the stream’s own logo is kept, not shown';

/** Spec 001: streams, publishing locations and mirrors. */
export const STREAM_FIELDS: Record<string, Review> = {
  'streams.*.name': applied('media-sources.test.ts', 'reads MPEG-TS over HTTP (tshttp://)'),
  'streams.*.title': applied('iptv.test.ts', 'a playlist lists the IPTV streams in order'),
  'streams.*.position': applied(
    'e2e/media-reorder.spec.ts',
    'a dragged stream keeps its new place after a reload',
  ),
  ...under('streams.*.urls[]', SOURCE_ENTRY),
  'streams.*.static': applied('media-test-source.test.ts', 'starts an on-demand stream on its first client'),
  'streams.*.disabled': applied(
    'src/engine/publish-route.test.ts',
    'refuses streams that do not publish, disabled ones',
  ),
  'streams.*.publish_enabled': applied(
    'media-publish.test.ts',
    'takes a publisher with the right password into the configured stream',
  ),
  ...under('streams.*.meta', STREAM_META),
  'streams.*.protocols': applied(
    'media-sessions.test.ts',
    'applies the protocol switches and max_sessions without a restart',
  ),
  'streams.*.prefix': applied(
    'src/engine/publish-route.test.ts',
    'sends PREFIX/NAME to the stream NAME whose own prefix is PREFIX',
  ),
  'streams.*.url_prefix': notApplied('output urls are always this server’s own; url_prefix is not used'),
  'streams.*.password': applied(
    'media-publish.test.ts',
    'waits for a publisher without showing an error, and refuses a wrong password',
  ),
  'streams.*.max_bitrate': applied('publish-mpegts.test.ts', 'disconnects a publisher over max_bitrate'),
  'streams.*.on_publish': applied('media-publish.test.ts', 'asks the on_publish handler on start'),
  // media-failover's switch would also come within its budget at the default 10 s.
  'streams.*.source_timeout': applied(
    'src/engine/source-timeout.test.ts',
    "the stream's source_timeout (2 s here, not the default 10 s) moves a silent source to the next url",
  ),
  'streams.*.cluster_key': applied(
    'auth-playback.test.ts',
    'a mirror proving the cluster key pulls a protected stream',
  ),
  'streams.*.cluster_ingest': applied('cluster-ingest.test.ts', 'runs the source on exactly one server'),
  'streams.*.backup': applied(
    'media-backup.test.ts',
    'plays the backup in a loop after a discontinuity when the source stops',
  ),
  'streams.*.clients_timeout': applied('media-test-source.test.ts', 'stops it after clients_timeout'),
  'streams.*.max_sessions': applied(
    'media-sessions.test.ts',
    'applies the protocol switches and max_sessions without a restart',
  ),
  'streams.*.pushes[].url': applied('media-publish.test.ts', 'pushes a stream to each push url'),
  'streams.*.prepush': applied('media-prepush.test.ts', 'gives a new MPEG-TS player at least'),
  'streams.*.provider': notApplied('the MPEG-TS service descriptor always names Sluice as provider'),
  'streams.*.add_audio_only': applied(
    'media-prepush.test.ts',
    'lists an audio-only variant in the HLS master',
  ),
  'streams.*.segment_count': applied(
    'media-udp-hls.test.ts',
    'rolls the playlist: the media sequence moves on and old segments leave',
  ),
  // segment_duration 1 with 2 s GOPs: only an applied setting cuts a segment that starts inside a GOP.
  'streams.*.segment_duration': applied(
    'media-fmp4-hls.test.ts',
    'a segment from a keyframe and the next, cut inside its GOP',
  ),
  ...under('streams.*.thumbnails', thumbnails(applied('media-preview.test.ts', 'shows the newest keyframe'))),
  ...under(
    'streams.*.dvr',
    itemDvr(
      'dvr/DvrSettingsFields.tsx',
      applied('dvr-recording.test.ts', 'writes the segments under ROOT/NAME in the layout'),
    ),
  ),
  'streams.*.external_dvr': notApplied('this server records only with its own DVR', 'dvr/DvrTab.tsx'),
  ...under('streams.*.cache', cache('dvr/CacheFields.tsx')),
  ...under('streams.*.transcoder', TRANSCODER),
  'streams.*.type': notApplied('kept as written; this server decides a stream’s kind from its sources'),
  ...under(
    'streams.*.auth',
    auth(
      applied('auth-playback.test.ts', 'HLS: the denied token, and no token, get 403 and no media'),
      HANDED("a stream's auth max_sessions limits its sessions when it sets no max_sessions of its own"),
    ),
  ),
  ...under('streams.*.drm', DRM),
  ...under(
    'streams.*.logo',
    Object.fromEntries(
      ['path', 'height', 'width', 'left', 'top'].map((k) => [k, notApplied(NO_STREAM_LOGO)]),
    ),
  ),
  'streams.*.extra': notApplied('free options are kept for the operator; none of them changes the stream'),
};

export const LOCATION_FIELDS: Record<string, Review> = {
  'lives.*.prefix': applied('media-publish.test.ts', 'creates the published stream in its location'),
  'lives.*.position': applied(
    'e2e/media-reorder.spec.ts',
    'a dragged stream keeps its new place after a reload',
  ),
  ...under(
    'lives.*.urls[]',
    // A location's url entries become its pulled streams' sources as they are (engine/location-urls.ts),
    // so their options act as a stream's; the console shows no url of a location.
    {
      ...Object.fromEntries(
        Object.entries(SOURCE_ENTRY).map(([key, review]) => [
          key,
          review.kind === 'applied' ? review : notApplied(review.reason),
        ]),
      ),
      url: applied(
        'location-settings.test.ts',
        'pulls PREFIX/NAME for a player from the url with {NAME} filled in',
      ),
    },
  ),
  ...under('lives.*.meta', LOCATION_META),
  ...under(
    'lives.*.auth',
    auth(
      applied('auth-rules.test.ts', 'RTMP publish into a location follows its auth'),
      HANDED(LOCATION_HANDS),
    ),
  ),
  ...under(
    'lives.*.dvr',
    itemDvr('dvr/DvrSettingsFields.tsx', applied('dvr-recording.test.ts', 'records a location')),
  ),
  ...under('lives.*.drm', LOCATION_DRM_FIELDS),
  ...under('lives.*.cache', cache('dvr/CacheFields.tsx')),
  'lives.*.except': applied('location-settings.test.ts', 'refuses a name in except (as NAME or PREFIX/NAME)'),
  'lives.*.clients_timeout': applied(
    'location-settings.test.ts',
    'turns a published stream off clients_timeout after its last client',
  ),
  'lives.*.source_timeout': applied(
    'src/engine/published-streams.test.ts',
    'names a published stream once its publisher stayed away for source_timeout',
  ),
  'lives.*.password': applied(
    'security-rtmp-publish.test.ts',
    'creates no stream for wrong or missing passwords in a publishing location',
  ),
  ...under('lives.*.thumbnails', thumbnails(HANDED(LOCATION_HANDS))),
};

export const MIRROR_FIELDS: Record<string, Review> = {
  'sources.*.position': applied(
    'src/config/text/locate.test.ts',
    'finds a top-level setting and a mirror by its position',
  ),
  'sources.*.urls': applied('mirror-modes.test.ts', 'origin stops → error on the mirror'),
  'sources.*.cluster_key': applied(
    'auth-mirror.test.ts',
    'the origin refuses its viewers but lets the mirror pull',
  ),
  'sources.*.only': applied('mirror-modes.test.ts', 'only: [a] → a runs static without clients'),
  'sources.*.except': applied('mirror-modes.test.ts', 'except: [b] → b is not listed and does not play'),
  ...under(
    'sources.*.dvr',
    itemDvr(
      'dvr/DvrSettingsFields.tsx',
      applied('dvr-mirror.test.ts', 'records a mirrored stream under ROOT/NAME'),
    ),
  ),
  ...under('sources.*.meta', MIRROR_META),
  'sources.*.title': applied('e2e/mirror-section.spec.ts', 'adds a mirror from the form'),
  ...under('sources.*.thumbnails', thumbnails(HANDED(MIRROR_HANDS))),
  ...under(
    'sources.*.auth',
    auth(
      applied(
        'auth-mirror.test.ts',
        "the mirror's viewers are checked by the mirror's auth and max_sessions",
      ),
      applied(
        'auth-mirror.test.ts',
        "the mirror's viewers are checked by the mirror's auth and max_sessions",
      ),
    ),
  ),
  'sources.*.clients_timeout': applied(
    'src/cluster/mirror-plan.test.ts',
    "hands the mirror's client timeout to its mirrored streams",
  ),
};
