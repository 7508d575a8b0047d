import { CLUSTER_PROOF_HEADER, signClusterRequest } from '../../cluster/proof.js';
import type { Source, SourceEvents } from './source.js';

export interface HttpTsPlan {
  url: string;
  userAgent?: string;
  /** Each request carries a fresh proof of this key (a mirror pulling from its origin). */
  clusterKey?: string;
}

/** MPEG-TS as the body of one long HTTP response; reconnects with a growing delay when it ends. */
export class HttpTsSource implements Source {
  private abort: AbortController | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;

  constructor(
    private readonly plan: HttpTsPlan,
    private readonly events: SourceEvents,
    private readonly retryDelayMs = 1000,
  ) {}

  start(): void {
    if (this.abort) return;
    const abort = new AbortController();
    this.abort = abort;
    void this.read(abort);
  }

  async stop(): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const abort = this.abort;
    this.abort = undefined;
    abort?.abort();
  }

  private async read(abort: AbortController): Promise<void> {
    let reason: string;
    try {
      const headers: Record<string, string> = this.plan.userAgent
        ? { 'user-agent': this.plan.userAgent }
        : {};
      if (this.plan.clusterKey)
        headers[CLUSTER_PROOF_HEADER] = signClusterRequest(
          this.plan.clusterKey,
          new URL(this.plan.url).pathname,
        );
      const response = await fetch(this.plan.url, { signal: abort.signal, headers });
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      this.events.log(`connected to ${this.plan.url}`);
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.failures = 0;
        this.events.data(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
      }
      reason = 'the server ended the response';
    } catch (error) {
      if (abort.signal.aborted) return;
      const cause = (error as Error & { cause?: Error }).cause;
      reason = cause?.message ?? (error as Error).message;
    }
    if (this.abort !== abort) return;
    this.events.error(`${this.plan.url}: ${reason}`);
    this.failures++;
    const delay = Math.min(10_000, this.retryDelayMs * 2 ** (this.failures - 1));
    this.abort = undefined;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.abort) this.start();
    }, delay);
  }
}
