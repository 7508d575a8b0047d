import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientSession, ClientSessions, SessionType } from '../delivery/client-sessions.js';
import type { LocatedFile } from './vod-locate.js';
import type { Borrowed } from './vod-sources.js';

/**
 * A playback format plugged into the VOD URL family (vod-handler.ts) besides the file itself, HLS
 * and MPEG-TS: DASH (index.mpd and its pieces), preview.jpg. The handler has done everything a
 * request goes through before a byte goes out (the VOD enabled, the path safe, the file found,
 * protocol switches, play authorization, the session, the file marked opened); `serve` answers.
 */
export interface VodFormat {
  /** Whether this format answers `resource`, the URL's last part after the file ('index.mpd'). */
  matches: (resource: string) => boolean;
  /**
   * The session type a request of `resource` counts to (its protocol switch is checked too);
   * undefined for a request that shows the file but is no playback (a preview): it is checked by
   * play authorization and counts to no session.
   */
  session: (resource: string) => SessionType | undefined;
  serve: (request: VodRequest) => Promise<void> | void;
}

export interface VodRequest {
  /** PREFIX/PATH: what answers call the file. */
  name: string;
  prefix: string;
  file: LocatedFile;
  resource: string;
  /** '?token=…' to put after URIs in a manifest (so its pieces count to the same session), or ''. */
  query: string;
  /**
   * The file's opened VodSource from the shared cache: `release()` it once the answer is done.
   * Rejects with an Error naming the file when it can't be opened (the handler answers 422 for
   * an Error thrown out of `serve` while nothing was sent).
   */
  borrow: () => Promise<Borrowed>;
  /** Undefined when `session(resource)` is. */
  session: ClientSession | undefined;
  sessions: ClientSessions;
  req: IncomingMessage;
  res: ServerResponse;
}

/** An Error whose answer status is known (404 for a piece the file does not have …). */
export class VodAnswerError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
