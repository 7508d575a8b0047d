import { auth, VOD_META } from './fields-001-shared.js';
import { applied, notApplied, type Review, under } from './review.js';

const VOD_AUTH = applied(
  'vod-playback-sessions.test.ts',
  "play auth: the VOD's auth refuses a player without a good token, and holds max_sessions",
);

/** Spec 002: VOD locations, DVR storages and auth backends. */
export const VOD_FIELDS: Record<string, Review> = {
  'vods.*.prefix': applied('src/vod/vod-roots.test.ts', 'splits a name at the longest configured prefix'),
  'vods.*.position': applied('src/vod/vod-roots.test.ts', 'finds a VOD by prefix with its roots in order'),
  'vods.*.urls[].url': applied('src/vod/vod-roots.test.ts', 'finds a VOD by prefix with its roots in order'),
  'vods.*.read_queue': applied('src/vod/read-limits.test.ts', 'holds a VOD to read_queue over all its files'),
  'vods.*.max_readers': applied('src/vod/read-limits.test.ts', 'holds one file to max_readers'),
  'vods.*.download': applied(
    'vod-playback-sessions.test.ts',
    'download false switches the file as it is off',
  ),
  'vods.*.auto_mbr': notApplied(
    'a file is served with the tracks it holds; no multi-bitrate set is made from sibling files',
    'vod/VodOutputTab.tsx',
  ),
  ...under('vods.*.auth', auth(VOD_AUTH, VOD_AUTH)),
  ...under('vods.*.meta', VOD_META),
  'vods.*.disabled': applied('vod-playback-sessions.test.ts', 'a disabled VOD answers 404 saying so'),
};

/** A storage's limits apply to the items recording into it (then retention acts on them: fields-001). */
const STORAGE_LIMITS = applied(
  'src/dvr/dvr-settings.test.ts',
  'resolves `dvr @NAME` through the global storage, the item overriding its limits',
);

export const DVR_FIELDS: Record<string, Review> = {
  'dvrs.*.name': applied('dvr-storages.test.ts', 'records a `dvr @main` stream under the storage root'),
  'dvrs.*.position': applied(
    'e2e/dvr-storage.spec.ts',
    'a DVR with every section filled is written to the config file as dvrs',
  ),
  'dvrs.*.root': applied('dvr-storages.test.ts', 'records a `dvr @main` stream under the storage root'),
  'dvrs.*.raid': applied('dvr-raid.test.ts', 'spreads segments over the mounted disks'),
  'dvrs.*.active': applied(
    'src/dvr/disk-placement.test.ts',
    'spreads segments over the active disks in turn',
  ),
  'dvrs.*.copy': applied('dvr-storages.test.ts', 'copies each finished segment'),
  'dvrs.*.index': notApplied(
    'the archive index is kept beside the segments',
    'dvrs/DvrAdditionalSection.tsx',
  ),
  'dvrs.*.no_index': notApplied('the DVR always keeps its index', 'dvrs/DvrAdditionalSection.tsx'),
  'dvrs.*.schedule': applied('src/dvr/schedule.test.ts', 'records inside [FROM, TO] (HHMM, local time'),
  'dvrs.*.disks.*.position': applied('dvr-raid.test.ts', 'spreads segments over the mounted disks'),
  'dvrs.*.disks.*.mode': applied(
    'src/dvr/dvr-stream.test.ts',
    'each mode decides whether a disk is read, written and cleaned',
  ),
  'dvrs.*.disk_limit': STORAGE_LIMITS,
  'dvrs.*.disk_space': STORAGE_LIMITS,
  'dvrs.*.dvr_limit': STORAGE_LIMITS,
};

const LISTS = {
  ips: 'ips: plain and CIDR; a denied ip wins over an allowed country',
  tokens: 'a denied token wins over an allowed token, ip, country and ua',
  countries: 'an allowed ip wins over a denied country; a denied country over an allowed ua',
  uas: 'user agents match case-insensitively by part',
};

export const AUTH_BACKEND_FIELDS: Record<string, Review> = {
  'auth_backends.*.name': applied('auth-rules.test.ts', 'auth://NAME: tokens before ips, then allow_default'),
  'auth_backends.*.position': applied('e2e/auth-backends.spec.ts', 'values, a new backend, rename'),
  'auth_backends.*.allow_default': applied(
    'auth-rules.test.ts',
    'auth://NAME: tokens before ips, then allow_default',
  ),
  ...Object.fromEntries(
    ['allow', 'deny'].flatMap((mode) =>
      Object.entries(LISTS).map(([list, title]) => [
        `auth_backends.*.${mode}.${list}`,
        applied('src/auth/backend-rules.test.ts', title),
      ]),
    ),
  ),
  'auth_backends.*.backends[].url': applied(
    'src/auth/backend-rules.test.ts',
    'asks its HTTP backends only when no list matched',
  ),
};
