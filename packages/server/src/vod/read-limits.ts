/**
 * The VOD settings' disk limits (spec 002 §2 VOD settings): read_queue, the segment reads of one
 * VOD at once, and max_readers, those of one file at once. A read over a limit waits its turn
 * (first come, first served) rather than being refused: a crowd of players seeking in the same
 * files queues on the disk instead of thrashing it. Unset limits are no limits.
 */
export class ReadLimits {
  private readonly gates = new Map<string, Gate>();

  /** Runs `task` once the VOD `prefix` and the file `path` each have a free reader. */
  async run<T>(
    prefix: string,
    path: string,
    limits: { readQueue?: number; maxReaders?: number },
    task: () => Promise<T>,
  ): Promise<T> {
    // Always the file first, then the VOD: one order, so two reads never wait on each other.
    const file = await this.enter(`f\0${path}`, limits.maxReaders);
    let vod: (() => void) | undefined;
    try {
      vod = await this.enter(`v\0${prefix}`, limits.readQueue);
      return await task();
    } finally {
      vod?.();
      file();
    }
  }

  /** Gates in use now (each removed when its last reader leaves). */
  get size(): number {
    return this.gates.size;
  }

  /** Waits for a place under `limit` at gate `key`; resolves to the way out. */
  private async enter(key: string, limit: number | undefined): Promise<() => void> {
    if (!limit || limit < 1) return () => undefined;
    let gate = this.gates.get(key);
    if (!gate) {
      gate = { active: 0, waiting: [] };
      this.gates.set(key, gate);
    }
    const held = gate;
    if (held.active >= limit) await new Promise<void>((resolve) => held.waiting.push(resolve));
    else held.active++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = held.waiting.shift();
      // The place passes straight to the next in line; `active` stays counted for it.
      if (next) return next();
      held.active--;
      if (held.active === 0 && this.gates.get(key) === held) this.gates.delete(key);
    };
  }
}

interface Gate {
  active: number;
  waiting: (() => void)[];
}
