import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientSession, ClientSessions } from '../delivery/client-sessions.js';
import { COMMON_HEADERS } from '../delivery/respond.js';
import type { ArchiveIndex, ArchiveSegment } from './archive-index.js';
import { segmentAfter } from './archive-window.js';

/**
 * MPEG-TS out of the archive: a range as one file (archive-FROM-DURATION.ts), and a timeshift as a
 * never-ending stream (timeshift_abs-FROM.ts, timeshift_rel-DELAY.ts). Segments are whole MPEG-TS
 * files that each open with PAT/PMT and a keyframe, so they are sent back to back as they are.
 */

/** A timeshift player is sent this much media ahead of the clock: enough to start, no more. */
const TIMESHIFT_AHEAD_MS = 4_000;
/** How often a timeshift stream looks for its next segment to be due (or recorded). */
const TIMESHIFT_TICK_MS = 250;
/** A player this far behind is cut off rather than buffered without bound (as for live /mpegts). */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

interface Output {
  sessions: ClientSessions;
  session: ClientSession;
  req: IncomingMessage;
  res: ServerResponse;
}

/** Pipes one file into the response (not ending it); false when the response went away first. */
function pipeSegment(out: Output, path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const stream = createReadStream(path);
    const onClose = () => {
      stream.destroy();
      resolve(false);
    };
    const finish = () => {
      out.res.off('close', onClose);
      stream.unpipe(out.res);
      resolve(!out.res.destroyed);
    };
    out.res.once('close', onClose);
    stream.on('data', (chunk: Buffer | string) => out.sessions.sent(out.session, chunk.length, Date.now()));
    stream.pipe(out.res, { end: false });
    stream.once('end', finish);
    // A segment removed by retention meanwhile: the player gets what there is.
    stream.once('error', finish);
  });
}

/** The range's segments back to back; Content-Length from the index (the files' sizes). */
export async function sendRangeTs(out: Output, index: ArchiveIndex, segments: readonly ArchiveSegment[]) {
  const bytes = segments.reduce((sum, s) => sum + s.bytes, 0);
  out.res.writeHead(200, {
    ...COMMON_HEADERS,
    'content-type': 'video/mp2t',
    'content-length': bytes,
    'cache-control': 'no-cache',
  });
  if (out.req.method === 'HEAD') return void out.res.end();
  out.session.openResponses++;
  out.res.once('close', () => out.session.openResponses--);
  for (const segment of segments) if (!(await pipeSegment(out, index.pathOf(segment)))) return;
  out.res.end();
}

/**
 * A live MPEG-TS over the archive from `first` on, one segment after the other as the clock
 * reaches it: `dueMs(segment, sentMs)` is when a segment may go, given how much media went before.
 */
export async function sendTimeshiftTs(
  out: Output,
  index: ArchiveIndex,
  first: ArchiveSegment,
  dueMs: (segment: ArchiveSegment, sentMediaMs: number) => number,
): Promise<void> {
  out.res.writeHead(200, { ...COMMON_HEADERS, 'content-type': 'video/mp2t', 'cache-control': 'no-cache' });
  if (out.req.method === 'HEAD') return void out.res.end();
  out.session.openResponses++;
  let closed = false;
  out.res.once('close', () => {
    closed = true;
    out.session.openResponses--;
  });
  let segment: ArchiveSegment | undefined = first;
  let sentMediaMs = 0;
  let lastStartMs = first.startMs - 1;
  while (!closed && !out.sessions.isClosed(out.session)) {
    // The next segment, once it is recorded and its time came; else look again shortly.
    segment ??= segmentAfter(index, lastStartMs);
    if (!segment || dueMs(segment, sentMediaMs) > Date.now() + TIMESHIFT_AHEAD_MS) {
      await new Promise((resolve) => setTimeout(resolve, TIMESHIFT_TICK_MS));
      continue;
    }
    if (out.res.writableLength > MAX_BUFFERED_BYTES) return void out.res.destroy();
    if (!(await pipeSegment(out, index.pathOf(segment)))) return;
    sentMediaMs += segment.durationMs;
    lastStartMs = segment.startMs;
    segment = undefined;
  }
  out.res.end();
}
