import {
  type AskingPublishHandler,
  type PlayHandler,
  RtmpServer,
  type RtmpServerLog,
} from './rtmp-server.js';
import { type RtmpLimits, rtmpLimitsFrom } from './rtmp-limits.js';
import type { TlsWrap } from '../tls-accept.js';

/**
 * The RTMP listener on the configured `rtmp` port (or, with `tls`, the RTMPS one on `rtmps`):
 * opened at start, moved when the port changes, closed when it is removed. A port that can't be
 * opened is reported and the rest keeps running.
 */
export class RtmpPort {
  private server: RtmpServer | undefined;
  private port: number | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly onPublish: AskingPublishHandler,
    private readonly log: RtmpServerLog,
    private readonly host: string,
    private readonly onPlay?: PlayHandler,
    private readonly limits: RtmpLimits = rtmpLimitsFrom(process.env),
    private readonly tls?: TlsWrap,
  ) {}

  /** Listens on `port` (none: closed); changes run in order. */
  apply(port: number | undefined): Promise<void> {
    this.queue = this.queue.then(() => this.move(port));
    return this.queue;
  }

  close(): Promise<void> {
    return this.apply(undefined);
  }

  private async move(port: number | undefined): Promise<void> {
    if (port === this.port) return;
    await this.server?.close();
    this.server = undefined;
    this.port = port;
    if (port === undefined) return;
    const server = new RtmpServer(this.onPublish, this.log, this.onPlay, this.limits, this.tls);
    try {
      await server.listen(port, this.host);
      this.server = server;
    } catch (error) {
      const name = this.tls ? 'RTMPS' : 'RTMP';
      this.log.error(`can't listen on ${name} port ${port}: ${(error as Error).message}`);
    }
  }
}
