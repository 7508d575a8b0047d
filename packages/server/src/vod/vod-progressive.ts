import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, extname } from 'node:path';
import type { ClientSession, ClientSessions } from '../delivery/client-sessions.js';
import { sendFile } from '../dvr/archive-respond.js';
import type { LocatedFile } from './vod-locate.js';

/** Content-Type by extension: a <video> element plays progressive MP4 from this URL. */
const CONTENT_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.f4v': 'video/mp4',
  '.m4a': 'audio/mp4',
  '.mp4a': 'audio/mp4',
  '.mov': 'video/quicktime',
  '.3gp': 'video/3gpp',
  '.3g2': 'video/3gpp2',
  '.mkv': 'video/x-matroska',
  '.webm': 'video/webm',
  '.flv': 'video/x-flv',
  '.ts': 'video/mp2t',
  '.m2ts': 'video/mp2t',
  '.mts': 'video/mp2t',
  '.mp3': 'audio/mpeg',
  '.aac': 'audio/aac',
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.mpd': 'application/dash+xml',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.srt': 'application/x-subrip',
  '.vtt': 'text/vtt',
};

export const contentTypeOf = (path: string): string =>
  CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';

/**
 * The file as it is (download, progressive playback): one byte range per request (206 with
 * Content-Range; 416 beyond the end), streamed from disk with backpressure (a read stream piped
 * to the socket reads no faster than the player takes), counted to the session as it goes out.
 * A file deleted while it is read is read to its end: the open descriptor keeps its bytes.
 */
export function serveProgressive(
  sessions: ClientSessions,
  session: ClientSession,
  file: LocatedFile,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const name = headerSafe(basename(file.absolute));
  const type = contentTypeOf(file.absolute);
  sendFile(
    sessions,
    session,
    req,
    res,
    { path: file.absolute, size: file.sizeBytes, type, name },
    () => undefined,
  );
}

/** A file name as a header may carry it (latin-1, no quotes): others become '_'. */
function headerSafe(name: string): string {
  return name.replace(/[^\x20-\x7e]|["\\]/g, '_');
}
