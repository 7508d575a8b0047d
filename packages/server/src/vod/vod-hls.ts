import type { VodSegment, VodSource, VodTrack } from './vod-source.js';

/**
 * HLS of a file (RFC 8216 VOD playlists): index.m3u8 lists one variant, video.m3u8, whose
 * segments seg-I.ts carry the video and, with at most one audio track, that audio too. A file
 * with several audio tracks gets them as EXT-X-MEDIA renditions instead, each with its own
 * playlist audio-ID.m3u8 of segments a-ID-I.ts, and its video segments carry the video alone.
 * Every segment is source.tsSegment(I, tracks): cut at the file's keyframes, nothing stored.
 */
export interface HlsLayout {
  /** The track ids in seg-I.ts. */
  main: number[];
  video: VodTrack | undefined;
  /** Audio renditions (two or more audio tracks); empty when the audio is in seg-I.ts. */
  renditions: VodTrack[];
}

/** MPEG-TS packets, PES headers and PAT/PMT over the tracks' own bit rates, in a TS segment. */
const TS_OVERHEAD = 1.1;

export function hlsLayout(tracks: readonly VodTrack[]): HlsLayout {
  const video = tracks.find((t) => t.content === 'video');
  const audio = tracks.filter((t) => t.content === 'audio');
  if (video && audio.length >= 2) return { main: [video.id], video, renditions: audio };
  const main = [video, audio[0]].filter((t): t is VodTrack => t !== undefined).map((t) => t.id);
  return { main, video, renditions: [] };
}

/** index.m3u8: the variant with BANDWIDTH, CODECS and RESOLUTION from the tracks, and the audio group. */
export function vodMasterPlaylist(source: VodSource, query: string): string {
  const layout = hlsLayout(source.tracks);
  const byId = new Map(source.tracks.map((t) => [t.id, t]));
  const inMain = layout.main.map((id) => byId.get(id)!);
  // A player switching audio needs the bandwidth with the biggest rendition.
  const extraAudio = layout.renditions.reduce((max, t) => Math.max(max, t.bitrate), 0);
  const average = inMain.reduce((sum, t) => sum + t.bitrate, 0) + extraAudio;
  const codecs = unique([...inMain, ...layout.renditions].map((t) => t.codec).filter((c) => c !== ''));
  const attributes = [
    `BANDWIDTH=${Math.max(1, Math.ceil(average * TS_OVERHEAD))}`,
    `AVERAGE-BANDWIDTH=${Math.max(1, Math.round(average))}`,
  ];
  if (codecs.length > 0) attributes.push(`CODECS="${codecs.join(',')}"`);
  const { video } = layout;
  if (video?.width && video.height) attributes.push(`RESOLUTION=${video.width}x${video.height}`);
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  if (layout.renditions.length > 0) {
    attributes.push('AUDIO="audio"');
    const names = renditionNames(layout.renditions);
    layout.renditions.forEach((track, i) => {
      const media = [
        'TYPE=AUDIO',
        'GROUP-ID="audio"',
        `NAME="${names[i]}"`,
        i === 0 ? 'DEFAULT=YES' : 'DEFAULT=NO',
        'AUTOSELECT=YES',
      ];
      if (track.lang) media.push(`LANGUAGE="${track.lang}"`);
      if (track.channels) media.push(`CHANNELS="${track.channels}"`);
      media.push(`URI="audio-${track.id}.m3u8${query}"`);
      lines.push(`#EXT-X-MEDIA:${media.join(',')}`);
    });
  }
  lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, `video.m3u8${query}`);
  return `${lines.join('\n')}\n`;
}

/** A media playlist of every segment of the file: #EXT-X-PLAYLIST-TYPE:VOD, ended. */
export function vodMediaPlaylist(
  segments: readonly VodSegment[],
  uri: (index: number) => string,
  query: string,
): string {
  // A loop, not Math.max(...): a long file has more segments than a call has room for arguments.
  let longest = 0;
  for (const s of segments) if (s.durationS > longest) longest = s.durationS;
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${Math.max(1, Math.ceil(longest))}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXT-X-INDEPENDENT-SEGMENTS',
  ];
  segments.forEach((s, i) => lines.push(`#EXTINF:${s.durationS.toFixed(3)},`, `${uri(i)}${query}`));
  lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

/** What an HLS resource of a file is: a playlist's text, or a segment to cut (index, tracks). */
export type HlsAnswer = { playlist: string } | { segment: number; tracks: number[] } | { error: string };

/**
 * The answer to `resource` (index.m3u8, video.m3u8, audio-ID.m3u8, seg-I.ts, a-ID-I.ts) of an
 * opened file; `{error}` (404) for a track or segment the file does not have.
 */
export function hlsAnswer(source: VodSource, resource: string, query: string): HlsAnswer {
  const layout = hlsLayout(source.tracks);
  const count = source.segments.length;
  if (resource === 'index.m3u8') return { playlist: vodMasterPlaylist(source, query) };
  if (resource === 'video.m3u8')
    return { playlist: cachedPlaylist(source, resource, query, (i) => `seg-${i}.ts`) };
  let match = /^audio-(\d+)\.m3u8$/.exec(resource);
  if (match) {
    const id = Number(match[1]);
    if (!layout.renditions.some((t) => t.id === id)) return { error: `no audio rendition ${id}` };
    return { playlist: cachedPlaylist(source, resource, query, (i) => `a-${id}-${i}.ts`) };
  }
  match = /^seg-(\d+)\.ts$/.exec(resource);
  if (match) {
    const index = Number(match[1]);
    return index < count ? { segment: index, tracks: layout.main } : { error: `no segment ${index}` };
  }
  match = /^a-(\d+)-(\d+)\.ts$/.exec(resource);
  if (match) {
    const id = Number(match[1]);
    const index = Number(match[2]);
    if (!layout.renditions.some((t) => t.id === id)) return { error: `no audio rendition ${id}` };
    return index < count ? { segment: index, tracks: [id] } : { error: `no segment ${index}` };
  }
  return { error: `no ${resource}` };
}

/** Media playlists kept per opened file, by resource and query (a query carries a viewer's token). */
const PLAYLISTS_PER_FILE = 16;
const playlists = new WeakMap<VodSource, Map<string, string>>();

/**
 * A media playlist of an opened file, made once: a 2-hour file's is ~50 KB and ~1,800 segments, and
 * players ask for it again on every seek and start (measured: rebuilt per request, playlists queued
 * seconds behind segment cutting with 200 players seeking).
 */
function cachedPlaylist(
  source: VodSource,
  resource: string,
  query: string,
  uri: (index: number) => string,
): string {
  let kept = playlists.get(source);
  if (!kept) playlists.set(source, (kept = new Map()));
  const key = `${resource}${query}`;
  let text = kept.get(key);
  if (text === undefined) {
    text = vodMediaPlaylist(source.segments, uri, query);
    if (kept.size >= PLAYLISTS_PER_FILE) kept.delete(kept.keys().next().value!);
    kept.set(key, text);
  }
  return text;
}

/** Rendition names, unique in their group (RFC 8216 §4.3.4.1.1): the language, else 'Audio N'. */
function renditionNames(tracks: readonly VodTrack[]): string[] {
  const names = tracks.map((t, i) => t.lang ?? `Audio ${i + 1}`);
  return names.map((name, i) =>
    names.indexOf(name) === i && names.lastIndexOf(name) === i ? name : `${name} ${i + 1}`,
  );
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
