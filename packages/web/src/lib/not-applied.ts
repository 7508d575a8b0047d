/**
 * Config fields this server saves without acting on them (issue 23: no setting is a lie), each as a
 * path the field review writes (`streams.*.cache.path`: `*` any entry of a keyed section or record,
 * `[]` any item of a list) with the words of its mark. The server's field review
 * (packages/server/test/field-review.test.ts) fails when a field it finds not applied is missing
 * here, or when the form that shows it renders no NotAppliedMark.
 */
import { orderedSections } from '@sluice/api';

const sections = ['streams', 'lives', 'sources'] as const;
const each = (fields: string[], note: string): [string, string][] =>
  sections.flatMap((section) => fields.map((field): [string, string] => [`${section}.*.${field}`, note]));

const NO_REPLICATION =
  'Saved but not applied: this server does not replicate DVR archives to another server.';
const NO_CACHE =
  'Saved but not applied: this server keeps no SSD segment cache; archive segments are read from the DVR root.';
const NO_THUMBNAIL_URL =
  'Saved but not applied: previews are made from the stream itself, not fetched from a url.';
const NO_STREAM_LOGO = 'Saved but not applied: a logo is burnt in by a transcoder video track’s logo.';

export const NOT_APPLIED: Readonly<Record<string, string>> = {
  ...Object.fromEntries(each(['dvr.dvr_replicate', 'dvr.replication_port'], NO_REPLICATION)),
  ...Object.fromEntries(
    each(['cache.path', 'cache.disk_limit', 'cache.time_limit'], NO_CACHE).filter(
      ([f]) => !f.startsWith('sources'),
    ),
  ),
  ...Object.fromEntries(each(['thumbnails.url'], NO_THUMBNAIL_URL)),
  ...Object.fromEntries(
    ['path', 'height', 'width', 'left', 'top'].map((k) => [`streams.*.logo.${k}`, NO_STREAM_LOGO]),
  ),
  'streams.*.external_dvr': 'Saved but not applied: this server records with its own DVR only.',
  ...Object.fromEntries(
    ['streams', 'lives'].flatMap((section) => [
      [
        `${section}.*.urls[].dvbsubs_ocr`,
        'Saved but not applied: DVB bitmap subtitles are carried in MPEG-TS and HLS as they come, not converted to WebVTT (that would need OCR). Teletext subtitles are offered as WebVTT in HLS without this option.',
      ],
      [
        `${section}.*.urls[].buffer`,
        'Saved but not applied: HLS sources are read as they come, with no extra buffer.',
      ],
    ]),
  ),
  'streams.*.url_prefix': 'Saved but not applied: output urls are always this server’s own.',
  'streams.*.provider': 'Saved but not applied: the MPEG-TS service descriptor names Sluice as provider.',
  'streams.*.type': 'Saved but not applied: a stream’s kind follows from its sources.',
  'streams.*.extra': 'Saved but not applied: free options are kept for the operator only.',
  'streams.*.transcoder.global.seamless': 'Saved but not applied: a transcoder restart starts a new segment.',
  'streams.*.transcoder.global.external': 'Saved but not applied: the transcoder runs inside this server.',
  ...Object.fromEntries(
    ['path', 'x', 'y', 'r'].map((k) => [
      `streams.*.transcoder.video.*.alogo.${k}`,
      'Saved but not applied: only the logo (not alogo) is burnt in.',
    ]),
  ),
  ...Object.fromEntries(
    ['lives', 'sources', 'vods'].map((section) => [
      `${section}.*.meta.iptv`,
      'Saved but not applied: the IPTV playlist lists configured streams only.',
    ]),
  ),
  ...Object.fromEntries(
    ['sources', 'vods'].map((section) => [
      `${section}.*.meta.drm_id`,
      'Saved but not applied: this item has no DRM of its own.',
    ]),
  ),
  ...Object.fromEntries(
    ['vsaas.database', 'vsaas.endpoint', 'rproxy.endpoint_auth', 'rproxy.streampoint_key'].map((k) => [
      `plugins.${k}`,
      'Kept, not applied: Sluice runs no Watcher; the settings are kept for a Watcher elsewhere.',
    ]),
  ),
  api: 'Not applied: the API is served on the HTTP ports.',
  'meta.drm_id': 'Not applied: drm_id acts in a stream’s or location’s meta.',
  'meta.iptv': 'Not applied: the IPTV playlist lists streams by their own meta.iptv.',
  mysql: 'Not served: no maintained MySQL wire-protocol server library makes it honest.',
  'vods.*.auto_mbr': 'Saved but not applied: a file is served with the tracks it holds.',
  'dvrs.*.index': 'Saved but not applied: the archive index is kept beside the segments.',
  'dvrs.*.no_index': 'Saved but not applied: the DVR always indexes its streams.',
};

/** The words of a field's mark; undefined when the field is applied. */
export const notAppliedNote = (field: string): string | undefined => NOT_APPLIED[field];

/** Sections keyed by name: a field inside one is named with `*` for the key. */
const KEYED = new Set<string>(orderedSections);
const RECORDS = new Set(['video', 'disks']);

/** A form's config path as the review names it: ['streams', 'cam', 'dvr', 'root'] → 'streams.*.dvr.root'. */
export function reviewField(path: readonly string[]): string {
  let out = '';
  path.forEach((part, i) => {
    if (i === 1 && KEYED.has(path[0] ?? '')) out += '.*';
    else if (RECORDS.has(path[i - 1] ?? '')) out += '.*';
    else if (/^\d+$/.test(part)) out += '[]';
    else out += out ? `.${part}` : part;
  });
  return out;
}
