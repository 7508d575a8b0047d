import {
  type AskingPublishHandler,
  type PlayHandler,
  RtmpServer,
  type RtmpServerLog,
} from './rtmp-server.js';
import { type RtmpLimits, rtmpLimitsFrom } from './rtmp-limits.js';
import type { TlsWrap } from '../tls-accept.js';
import { MediaPort } from '../media-port.js';

/**
 * The RTMP listener on the configured `rtmp` port (or, with `tls`, the RTMPS one on `rtmps`):
 * opened at start, moved when the port changes, closed when it is removed; a port that can't be
 * bound is a header notice and is tried again (media-port.ts).
 */
export class RtmpPort extends MediaPort {
  constructor(
    onPublish: AskingPublishHandler,
    log: RtmpServerLog,
    host: string,
    onPlay?: PlayHandler,
    limits: RtmpLimits = rtmpLimitsFrom(process.env),
    tls?: TlsWrap,
  ) {
    super(
      tls ? 'rtmps' : 'rtmp',
      tls ? 'RTMPS' : 'RTMP',
      () => new RtmpServer(onPublish, log, onPlay, limits, tls),
      host,
      log,
    );
  }
}
