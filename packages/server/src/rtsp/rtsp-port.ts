import type { RtspServerLog } from './rtsp-connection.js';
import { type RtspLimits, rtspLimitsFrom } from './rtsp-limits.js';
import { RtspServer } from './rtsp-server.js';
import type { RtspSessionDeps } from './rtsp-session.js';
import type { TlsWrap } from '../ingest/tls-accept.js';
import { MediaPort } from '../ingest/media-port.js';

/**
 * The RTSP listener on the configured `rtsp` port (spec 000 global settings), or with `tls` the
 * RTSPS one on `rtsps`: opened at start, moved when the port changes, closed when it is removed; a
 * port that can't be bound is a header notice and is tried again (ingest/media-port.ts).
 */
export class RtspPort extends MediaPort {
  constructor(
    deps: RtspSessionDeps,
    log: RtspServerLog,
    host: string,
    limits: RtspLimits = rtspLimitsFrom(process.env),
    tls?: TlsWrap,
  ) {
    super(
      tls ? 'rtsps' : 'rtsp',
      tls ? 'RTSPS' : 'RTSP',
      () => new RtspServer(deps, log, limits, tls),
      host,
      log,
    );
  }
}
