/** What a running source tells its stream. */
export interface SourceEvents {
  /** Bytes of MPEG-TS, in any alignment. */
  data(chunk: Buffer): void;
  /** A failed attempt (refused, exited, closed): counted in retry_count and shown as source_error. */
  error(message: string): void;
  /** A line for the stream's log. */
  log(line: string): void;
}

/** One input of a stream. It retries by itself where a retry makes sense; stop() ends it for good. */
export interface Source {
  start(): void;
  stop(): Promise<void>;
  /** True while silence is expected (a publish slot with no publisher): no timeout then. */
  readonly waiting?: boolean;
  /** Who publishes into the stream, for stats published_from / published_via. */
  readonly publishedFrom?: { from: string; via: string } | undefined;
  /** Ends a publish from the server's side. */
  kick?(reason: string): void;
}
