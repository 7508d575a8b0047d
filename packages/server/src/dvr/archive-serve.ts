import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { ClientSession, ClientSessions } from '../delivery/client-sessions.js';
import { COMMON_HEADERS } from '../delivery/respond.js';
import { ArchiveFmp4, archiveFmp4Playlist } from '../media/fmp4/archive-fmp4.js';
import type { ArchiveExports } from './archive-export.js';
import type { ArchiveIndex } from './archive-index.js';
import { livePlaylist, vodPlaylist } from './archive-playlist.js';
import { sendFile } from './archive-respond.js';
import { sendRangeTs, sendTimeshiftTs } from './archive-stream.js';
import type { ArchiveRequest } from './archive-url.js';
import { type LiveShape, type LiveStart, liveStartOf, positionAt, windowAt } from './archive-window.js';

/** undefined when the response went out, else the refusal to send. */
export type Served = { status: number; error: string } | undefined;

export interface Out {
  sessions: ClientSessions;
  session: ClientSession;
  req: IncomingMessage;
  res: ServerResponse;
}

type RangeRequest = Extract<ArchiveRequest, { kind: 'range' }>;
type PieceRequest = Extract<ArchiveRequest, { kind: 'dash_piece' }>;
type LiveRequest = Extract<ArchiveRequest, { kind: 'timeshift_abs' | 'timeshift_rel' | 'rewind' }>;

const iso = (ms: number) => new Date(ms).toISOString();

/** What the archive holds, for a 404's reason: the operator sees why a range was not there. */
function holdings(index: ArchiveIndex): string {
  const ranges = index.ranges();
  if (ranges.length === 0) return 'the archive is empty';
  const shown = ranges.slice(-3).map((r) => `${iso(r.fromMs)} +${Math.round(r.durationMs / 1000)} s`);
  return `the archive holds ${ranges.length} range(s)${ranges.length > 3 ? ', the last' : ''}: ${shown.join(', ')}`;
}

/** archive-FROM-DURATION.{m3u8,ts,mp4}: the segments overlapping the range, or a 404 saying what there is. */
export async function serveRange(
  deps: { exports: ArchiveExports },
  out: Out,
  index: ArchiveIndex,
  request: RangeRequest,
  query: string,
): Promise<Served> {
  const toMs = request.fromMs + request.durationMs;
  const segments = index.segments(request.fromMs, toMs);
  if (segments.length === 0)
    return {
      status: 404,
      error: `no archive of ${request.name} from ${iso(request.fromMs)} to ${iso(toMs)}: ${holdings(index)}`,
    };
  if (request.format === 'm3u8') {
    const playlist = vodPlaylist(segments, query);
    send(out, 'application/vnd.apple.mpegurl', request.fmp4 ? archiveFmp4Playlist(playlist) : playlist);
    return undefined;
  }
  if (request.format === 'ts') {
    await sendRangeTs(out, index, segments);
    return undefined;
  }
  if (request.format === 'mp4') {
    const file = await deps.exports.acquire(index, segments);
    const fileName = `${request.name.replaceAll('/', '_')}-${request.fromMs / 1000}-${request.durationMs / 1000}.mp4`;
    sendFile(
      out.sessions,
      out.session,
      out.req,
      out.res,
      { ...file, type: 'video/mp4', name: fileName },
      file.release,
    );
    return undefined;
  }
  // A static DASH copy: the MPD now, its pieces (archive-FROM-DURATION/…) from the same export.
  const dash = await deps.exports.acquire(index, segments, { kind: 'dash', pieceDir: pieceDirOf(request) });
  try {
    send(out, 'application/dash+xml', await readFile(join(dash.path, 'manifest.mpd'), 'utf8'));
  } finally {
    dash.release();
  }
  return undefined;
}

const pieceDirOf = (request: { fromMs: number; durationMs: number }) =>
  `archive-${request.fromMs / 1000}-${request.durationMs / 1000}`;

/** A piece of archive-FROM-DURATION.mpd: from the export of the same segments (made again if gone). */
export async function serveDashPiece(
  deps: { exports: ArchiveExports },
  out: Out,
  index: ArchiveIndex,
  request: PieceRequest,
): Promise<Served> {
  const segments = index.segments(request.fromMs, request.fromMs + request.durationMs);
  if (segments.length === 0) return { status: 404, error: `no archive of ${request.name} for this MPD` };
  const pieceDir = pieceDirOf(request);
  const dash = await deps.exports.acquire(index, segments, { kind: 'dash', pieceDir });
  // The piece name was checked against DASH_PIECE (archive-url.ts): no path of the request is used.
  const path = join(dash.path, pieceDir, request.piece);
  const size = await stat(path).then(
    (info) => info.size,
    () => undefined,
  );
  if (size === undefined) {
    dash.release();
    return { status: 404, error: `${request.piece} is not a piece of this MPD` };
  }
  sendFile(out.sessions, out.session, out.req, out.res, { path, size, type: 'video/mp4' }, dash.release);
  return undefined;
}

/** Where each player of a live playlist over the archive started, per session and URL. */
const liveStarts = new WeakMap<ClientSession, Map<string, LiveStart>>();

function liveStartFor(session: ClientSession, key: string, shape: LiveShape, nowMs: number): LiveStart {
  let starts = liveStarts.get(session);
  if (!starts) liveStarts.set(session, (starts = new Map()));
  let start = starts.get(key);
  if (!start) starts.set(key, (start = liveStartOf(shape, nowMs)));
  return start;
}

/** timeshift_abs, timeshift_rel (.m3u8, .ts) and rewind.m3u8: live over the archive. */
export function serveLive(out: Out, index: ArchiveIndex, request: LiveRequest, query: string): Served {
  const nowMs = Date.now();
  const shape: LiveShape =
    request.kind === 'timeshift_abs'
      ? { kind: 'timeshift_abs', fromMs: request.fromMs }
      : request.kind === 'timeshift_rel'
        ? { kind: 'timeshift_rel', delayMs: request.delayMs }
        : { kind: 'rewind', agoMs: request.agoMs };
  if (request.kind !== 'rewind' && request.format === 'ts') return timeshiftTs(out, index, shape, nowMs);
  // The fMP4 twin of a playlist starts where its player started, apart from the TS one's.
  const key = JSON.stringify({ ...shape, fmp4: request.fmp4 });
  const window = windowAt(index, shape, liveStartFor(out.session, key, shape, nowMs), nowMs);
  if (!window)
    return { status: 404, error: `nothing of ${request.name} recorded for this window: ${holdings(index)}` };
  const playlist = livePlaylist(window, query);
  send(out, 'application/vnd.apple.mpegurl', request.fmp4 ? archiveFmp4Playlist(playlist) : playlist);
  return undefined;
}

/** Remuxed archive pieces, shared by every player (a small LRU: media/fmp4/archive-fmp4.ts). */
const fmp4Pieces = new ArchiveFmp4();

/** dvr/START-DURATION.{m4s,init.mp4}: an archive segment as fMP4, remuxed on first request. */
export async function serveFmp4Piece(
  out: Out,
  index: ArchiveIndex,
  request: Extract<ArchiveRequest, { kind: 'fmp4_piece' }>,
): Promise<Served> {
  const bytes = await fmp4Pieces.piece(index, request.startMs, request.durationMs, request.piece);
  if (!bytes)
    return {
      status: 404,
      error: `segment ${request.startMs}-${request.durationMs} is not (or no longer) in the archive`,
    };
  // A piece of the past does not change: its name holds its start and length.
  const type = request.piece === 'init' ? 'video/mp4' : 'video/iso.segment';
  send(out, type, bytes, 'max-age=3600');
  return undefined;
}

function timeshiftTs(out: Out, index: ArchiveIndex, shape: LiveShape, nowMs: number): Served {
  const startMs =
    shape.kind === 'timeshift_abs'
      ? shape.fromMs
      : nowMs - (shape.kind === 'timeshift_rel' ? shape.delayMs : 0);
  const i = positionAt(index, startMs);
  if (i >= index.count)
    return { status: 404, error: `nothing recorded after ${iso(startMs)}: ${holdings(index)}` };
  const first = index.at(i);
  // timeshift_abs plays at the clock's pace from the first byte (a gap takes no time);
  // timeshift_rel sends each moment once it is `delay` old.
  const due =
    shape.kind === 'timeshift_rel'
      ? (segment: { startMs: number }) => segment.startMs + shape.delayMs
      : (_segment: unknown, sentMediaMs: number) => nowMs + sentMediaMs;
  void sendTimeshiftTs(out, index, first, due);
  return undefined;
}

function send(out: Out, type: string, text: string | Buffer, cache = 'no-cache'): void {
  const body = typeof text === 'string' ? Buffer.from(text) : text;
  out.res.writeHead(200, {
    ...COMMON_HEADERS,
    'content-type': type,
    'content-length': body.length,
    'cache-control': cache,
  });
  if (out.req.method === 'HEAD') return void out.res.end();
  out.res.end(body);
  out.sessions.sent(out.session, body.length, Date.now());
}
