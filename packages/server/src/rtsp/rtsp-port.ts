import type { RtspServerLog } from './rtsp-connection.js';
import { type RtspLimits, rtspLimitsFrom } from './rtsp-limits.js';
import { RtspServer } from './rtsp-server.js';
import type { RtspSessionDeps } from './rtsp-session.js';

/**
 * The RTSP listener on the configured `rtsp` port (spec 000 global settings): opened at start,
 * moved when the port changes, closed when it is removed. A port that can't be opened is reported
 * and the rest keeps running.
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
    const server = new RtspServer(this.deps, this.log, this.limits);
    try {
      await server.listen(port, this.host);
      this.server = server;
    } catch (error) {
      this.log.error(`can't listen on RTSP port ${port}: ${(error as Error).message}`);
    }
  }
}
