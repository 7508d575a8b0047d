import type { RtspServerLog } from './rtsp-connection.js';
import { type RtspLimits, rtspLimitsFrom } from './rtsp-limits.js';
import { RtspServer } from './rtsp-server.js';
import type { RtspSessionDeps } from './rtsp-session.js';
import type { TlsWrap } from '../ingest/tls-accept.js';

/**
 * The RTSP listener on the configured `rtsp` port (spec 000 global settings), or with `tls` the
 * RTSPS one on `rtsps`: opened at start, moved when the port changes, closed when it is removed.
 * A port that can't be opened is reported and the rest keeps running.
 */
export class RtspPort {
  private server: RtspServer | undefined;
  private port: number | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: RtspSessionDeps,
    private readonly log: RtspServerLog,
    private readonly host: string,
    private readonly limits: RtspLimits = rtspLimitsFrom(process.env),
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
    const server = new RtspServer(this.deps, this.log, this.limits, this.tls);
    try {
      await server.listen(port, this.host);
      this.server = server;
    } catch (error) {
      const name = this.tls ? 'RTSPS' : 'RTSP';
      this.log.error(`can't listen on ${name} port ${port}: ${(error as Error).message}`);
    }
  }
}
