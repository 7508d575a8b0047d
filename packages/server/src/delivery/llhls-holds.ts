import type { ServerResponse } from 'node:http';

interface Hold {
  met: () => boolean;
  finish: (met: boolean) => void;
}

/** Held LL-HLS requests of one stream at once, past which a request is answered 503 at once. */
export const MAX_HELD_PER_STREAM = Number(process.env.SLUICE_LLHLS_MAX_HELD) || 1000;

/**
 * LL-HLS requests of one stream held until what they ask for is published (a blocking playlist
 * reload, a preload-hinted part). Bounded: at most `max` at once, each for at most its timeout,
 * and one whose client left is dropped at once; `update()` answers every hold that is now met.
 */
export class HeldRequests {
  private readonly holds = new Set<Hold>();

  constructor(private readonly max = MAX_HELD_PER_STREAM) {}

  get size(): number {
    return this.holds.size;
  }

  /**
   * Resolves true once `met()` holds, false after `timeoutMs` or when the client closed the
   * connection; undefined (nothing held) when the stream already holds `max` requests.
   */
  hold(met: () => boolean, timeoutMs: number, res: ServerResponse): Promise<boolean> | undefined {
    if (met()) return Promise.resolve(true);
    if (this.holds.size >= this.max) return undefined;
    return new Promise<boolean>((resolve) => {
      const finish = (value: boolean) => {
        if (!this.holds.delete(hold)) return;
        clearTimeout(timer);
        res.off('close', gone);
        resolve(value);
      };
      const hold: Hold = { met, finish };
      const gone = () => finish(false);
      const timer = setTimeout(() => finish(met()), timeoutMs);
      res.once('close', gone);
      this.holds.add(hold);
    });
  }

  /** Something was published: answers the holds it meets. */
  update(): void {
    for (const hold of [...this.holds]) if (hold.met()) hold.finish(true);
  }

  /** The stream went away: every hold is answered as not met. */
  clear(): void {
    for (const hold of [...this.holds]) hold.finish(false);
  }
}
