import { ARCHIVE_FMP4_PIECE } from '../media/fmp4/archive-fmp4.js';
import { DASH_PIECE } from './archive-dash.js';

/**
 * The archive URL family of Flussonic's streaming API (compat/flussonic-playback-paths.txt), read
 * from a request path. Times in the path are UNIX seconds, lengths seconds; they are returned in
 * milliseconds, the unit of the archive index. A path of one of these shapes with a bad number or a
 * name that leaves the archive is answered 400 (`{error}`), never looked up.
 */

/** `fmp4: true` (only ever set when so): the playlist is the fMP4 HLS one, NAME.fmp4.m3u8. */
export type ArchiveRequest =
  | {
      name: string;
      kind: 'range';
      fromMs: number;
      durationMs: number;
      format: 'm3u8' | 'ts' | 'mp4' | 'mpd';
      fmp4?: true;
    }
  | { name: string; kind: 'timeshift_abs'; fromMs: number; format: 'm3u8' | 'ts'; fmp4?: true }
  | { name: string; kind: 'timeshift_rel'; delayMs: number; format: 'm3u8' | 'ts'; fmp4?: true }
  | { name: string; kind: 'rewind'; agoMs: number; fmp4?: true }
  | { name: string; kind: 'json'; what: 'ranges' | 'recording_status' | 'media_info' | 'info' }
  | { name: string; kind: 'jpg'; atMs: number; preview: boolean }
  /** One archive segment, as the playlists here name it: dvr/{startMs}-{durationMs}.ts. */
  | { name: string; kind: 'segment'; startMs: number; durationMs: number }
  /** The fMP4 pieces of that segment, named by the fMP4 playlists: dvr/{startMs}-{durationMs}.m4s, .init.mp4. */
  | { name: string; kind: 'fmp4_piece'; startMs: number; durationMs: number; piece: 'init' | 'fragment' }
  /** A piece of archive-FROM-DURATION.mpd, beside it: archive-FROM-DURATION/init-0.m4s, chunk-0-00001.m4s. */
  | { name: string; kind: 'dash_piece'; fromMs: number; durationMs: number; piece: string };

export type ArchiveKind = ArchiveRequest['kind'];
/** An archive request without its name, kind by kind. */
type Unnamed = ArchiveRequest extends infer R ? (R extends unknown ? Omit<R, 'name'> : never) : never;

/** The resource part of each shape; the number parts are checked apart, so a bad one is a 400. */
const SHAPES: [RegExp, (m: RegExpExecArray) => Omit<ArchiveRequest, 'name'> | string][] = [
  [/^(?:archive|index)-([^/.]*)\.(m3u8)$|^archive-([^/.]*)\.(ts|mp4|mpd)$/, rangeOf],
  [/^(?:archive|index)-([^/.]*)\.fmp4\.m3u8$/, (m) => fmp4(rangeIn(m[1]!, rangeAs('m3u8')))],
  [
    /^timeshift_abs-([^/.]*)\.(m3u8|ts)$/,
    (m) => withSeconds(m[1]!, 'from', (fromMs) => ({ kind: 'timeshift_abs', fromMs, format: format(m[2]) })),
  ],
  [
    /^timeshift_abs-([^/.]*)\.fmp4\.m3u8$/,
    (m) => fmp4(withSeconds(m[1]!, 'from', (fromMs) => ({ kind: 'timeshift_abs', fromMs, format: 'm3u8' }))),
  ],
  [
    /^timeshift_rel-([^/.]*)\.(m3u8|ts)$/,
    (m) =>
      withSeconds(m[1]!, 'delay', (delayMs) => ({ kind: 'timeshift_rel', delayMs, format: format(m[2]) })),
  ],
  [
    /^timeshift_rel-([^/.]*)\.fmp4\.m3u8$/,
    (m) =>
      fmp4(withSeconds(m[1]!, 'delay', (delayMs) => ({ kind: 'timeshift_rel', delayMs, format: 'm3u8' }))),
  ],
  [/^rewind-([^/.]*)\.m3u8$/, (m) => withSeconds(m[1]!, 'ago', (agoMs) => ({ kind: 'rewind', agoMs }), true)],
  [
    /^rewind-([^/.]*)\.fmp4\.m3u8$/,
    (m) => fmp4(withSeconds(m[1]!, 'ago', (agoMs) => ({ kind: 'rewind', agoMs }), true)),
  ],
  [/^(ranges|recording_status|media_info|info)\.json$/, (m) => ({ kind: 'json', what: m[1] as 'ranges' })],
  [
    /^(\d{1,12})(-preview)?\.jpg$/,
    (m) => ({ kind: 'jpg', atMs: Number(m[1]) * 1000, preview: m[2] !== undefined }),
  ],
  [/^archive-([^/]*)\/([^/]*\.m4s)$/, pieceOf],
  [
    /^dvr\/(\d{13})-(\d{1,9})\.ts$/,
    (m) => ({ kind: 'segment', startMs: Number(m[1]), durationMs: Number(m[2]) }),
  ],
  [
    ARCHIVE_FMP4_PIECE,
    (m) => ({
      kind: 'fmp4_piece',
      startMs: Number(m[1]),
      durationMs: Number(m[2]),
      piece: m[3] === 'm4s' ? 'fragment' : 'init',
    }),
  ],
];

/** Path parts each shape reads: the last one, or the last two for the shapes with a folder (dvr/…). */
const TAIL_PARTS = SHAPES.map(([shape]) => (shape.source.includes('\\/') ? 2 : 1));

/** Longest number of seconds taken: year 5138 in UNIX seconds, and no float precision lost in ms. */
const MAX_SECONDS = 99_999_999_999;

const format = <T extends string>(s: string | undefined): T => s as T;

/**
 * The archive request a path stands for; `{error}` for one of these shapes that is malformed;
 * undefined for any other path (live playback, the API).
 */
export function parseArchivePath(path: string): ArchiveRequest | { error: string } | undefined {
  // Every playback request passes here first (live segments too): split once, not once per shape.
  const parts = path.split('/');
  const tails = ['', parts.at(-1)!, parts.slice(-2).join('/')];
  for (let i = 0; i < SHAPES.length; i++) {
    const [shape, read] = SHAPES[i]!;
    const tailParts = TAIL_PARTS[i]!;
    if (parts.length < 2 + tailParts) continue;
    const match = shape.exec(tails[tailParts]!);
    if (!match) continue;
    const name = streamName(parts.slice(1, -tailParts).join('/'));
    if (typeof name !== 'string') return name;
    const request = read(match);
    if (typeof request === 'string') return { error: request };
    return { name, ...request } as ArchiveRequest;
  }
  return undefined;
}

function rangeOf(m: RegExpExecArray): Omit<ArchiveRequest, 'name'> | string {
  return rangeIn(m[1] ?? m[3]!, rangeAs(format<'m3u8' | 'ts' | 'mp4' | 'mpd'>(m[2] ?? m[4])));
}

const rangeAs =
  (ext: 'm3u8' | 'ts' | 'mp4' | 'mpd') =>
  (fromMs: number, durationMs: number): Extract<Unnamed, { kind: 'range' }> => ({
    kind: 'range',
    fromMs,
    durationMs,
    format: ext,
  });

type FmpPlaylist = Extract<Unnamed, { fmp4?: true }>;

/** The fMP4 HLS twin of a playlist request; an error message as it is. */
function fmp4(request: FmpPlaylist | string): FmpPlaylist | string {
  return typeof request === 'string' ? request : { ...request, fmp4: true };
}

function pieceOf(m: RegExpExecArray): Unnamed | string {
  const piece = m[2]!;
  if (!DASH_PIECE.test(piece)) return `unknown piece "${piece}" of an archive MPD`;
  return rangeIn(m[1]!, (fromMs, durationMs) => ({ kind: 'dash_piece', fromMs, durationMs, piece }));
}

/** FROM-DURATION (UNIX seconds, seconds) handed to `then` in ms; a message saying what is wrong. */
function rangeIn<T>(text: string, then: (fromMs: number, durationMs: number) => T): T | string {
  const parts = /^([^-]*)-(.*)$/.exec(text);
  if (!parts) return `malformed archive range "${text}": expected FROM-DURATION (UNIX seconds, seconds)`;
  return withSeconds(parts[1]!, 'from', (fromMs) =>
    withSeconds(parts[2]!, 'duration', (durationMs) => then(fromMs, durationMs), true),
  );
}

/** `text` as whole seconds, in ms, handed to `then`; a message naming the field when it is not one. */
function withSeconds<T>(
  text: string,
  field: string,
  then: (ms: number) => T | string,
  positive = false,
): T | string {
  if (/^-\d+$/.test(text)) return `${field} must be positive: ${text}`;
  if (!/^\d{1,20}$/.test(text)) return `malformed ${field} "${text}": expected whole seconds`;
  const seconds = Number(text);
  if (seconds > MAX_SECONDS) return `malformed ${field} ${text}: out of range`;
  if (positive && seconds === 0) return `${field} must be positive: 0`;
  return then(seconds * 1000);
}

/** The decoded stream name; an error for one that can't be decoded or would leave its archive folder. */
function streamName(raw: string): string | { error: string } {
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    return { error: `malformed stream name "${raw}"` };
  }
  const parts = name.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\0') || p.includes('\\')))
    return { error: `stream name "${name}" leaves the archive` };
  return name;
}
