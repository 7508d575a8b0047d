/** A server that can be bound to one port and closed (the RTMP, RTMPS, RTSP and RTSPS servers). */
export interface PortServer {
  listen(port: number, host: string): Promise<unknown>;
  close(): Promise<void>;
}

/** How long a port that could not be bound waits before it is tried again (as the web ports do). */
export const BIND_RETRY_MS = 5_000;

/**
 * One media listener on a configured port (`rtmp`, `rtmps`, `rtsp`, `rtsps`): opened at start, moved
 * when the port changes, closed when it is removed. A port that can't be bound is logged once, shown
 * as a header notice (server stats `error_listen_<key>_<port>`) and tried again every few seconds, so
 * a port another program frees is taken without a config change; the rest of the server keeps running.
 */
export class MediaPort {
  private server: PortServer | undefined;
  private port: number | undefined;
  private failure: string | undefined;
  private retry: NodeJS.Timeout | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    /** The config key, e.g. `rtmps`: names the notice. */
    private readonly key: string,
    /** As operators read it, e.g. `RTMPS`. */
    private readonly label: string,
    private readonly make: () => PortServer,
    private readonly host: string,
    private readonly log: { error(message: string): void },
  ) {}

  /** Listens on `port` (none: closed); changes run in order. */
  apply(port: number | undefined): Promise<void> {
    this.queue = this.queue.then(() => this.move(port));
    return this.queue;
  }

  close(): Promise<void> {
    return this.apply(undefined);
  }

  /** The header notice while the configured port can't be bound. */
  notices(): Record<string, string> {
    return this.failure && this.port !== undefined
      ? { [`error_listen_${this.key}_${this.port}`]: this.failure }
      : {};
  }

  private async move(port: number | undefined): Promise<void> {
    if (port === this.port && (this.server || port === undefined)) return;
    clearTimeout(this.retry);
    await this.server?.close();
    this.server = undefined;
    if (port !== this.port) this.failure = undefined;
    this.port = port;
    if (port === undefined) return;
    const server = this.make();
    try {
      await server.listen(port, this.host);
      this.server = server;
      this.failure = undefined;
    } catch (error) {
      const message = `Can't listen on ${this.label} port ${port}: ${(error as Error).message}`;
      // Logged once, not at every retry.
      if (message !== this.failure) this.log.error(message);
      this.failure = message;
      this.retry = setTimeout(() => void this.apply(port), BIND_RETRY_MS);
      this.retry.unref();
    }
  }
}
