import type { LiveSync } from '../../api/live-sync.js';

/** Spec 001 §9: sessions are polled every 1000 ms while the clients tab is open. */
export const SESSIONS_POLL_MS = 1000;

export interface PollTimer {
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const browserTimer: PollTimer = {
  setInterval: (run, ms) => setInterval(run, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

/**
 * The `sessions?name={name}` subscriptions of the console (spec 001 §7): counted by name, so
 * every component showing a media item's clients shares one poll of it. Asked at once when a name
 * is first subscribed, then every second for each name in use, again at once after a reconnect;
 * a name is no longer asked once its count reaches zero, and the timer stops with the last one.
 */
export class SessionsPoll {
  private readonly counts = new Map<string, number>();
  private timer: unknown;

  constructor(
    private readonly send: (command: string) => void,
    private readonly clock: PollTimer = browserTimer,
    private readonly intervalMs = SESSIONS_POLL_MS,
  ) {}

  /** Starts polling `name` (or counts one more user of it); the returned release is safe to call twice. */
  subscribe(name: string): () => void {
    const count = this.counts.get(name) ?? 0;
    this.counts.set(name, count + 1);
    if (count === 0) this.ask(name);
    this.timer ??= this.clock.setInterval(() => this.askAll(), this.intervalMs);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(name);
    };
  }

  /** How many users `name` has (0: not polled). */
  count(name: string): number {
    return this.counts.get(name) ?? 0;
  }

  /** Whether the each-second timer runs. */
  get polling(): boolean {
    return this.timer !== undefined;
  }

  /** The socket came back: ask for every subscribed name now rather than at the next tick. */
  resend(): void {
    this.askAll();
  }

  private release(name: string): void {
    const count = this.counts.get(name) ?? 0;
    if (count <= 1) this.counts.delete(name);
    else this.counts.set(name, count - 1);
    if (this.counts.size === 0 && this.timer !== undefined) {
      this.clock.clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private askAll(): void {
    for (const name of this.counts.keys()) this.ask(name);
  }

  private ask(name: string): void {
    this.send(`sessions?name=${encodeURIComponent(name)}`);
  }
}

const polls = new WeakMap<LiveSync, SessionsPoll>();

/** The one sessions poll of a console's events socket, re-sent whenever the socket reconnects. */
export function sessionsPollOf(sync: LiveSync): SessionsPoll {
  let poll = polls.get(sync);
  if (poll) return poll;
  const created = new SessionsPoll((command) => sync.connection.send(command));
  let connection = sync.store.getState().connection;
  sync.store.subscribe(() => {
    const next = sync.store.getState().connection;
    if (next === connection) return;
    connection = next;
    if (next === 'connected') created.resend();
  });
  polls.set(sync, created);
  poll = created;
  return poll;
}
