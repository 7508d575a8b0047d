import type { LiveView } from '../live/live-view.js';
import { redactSecrets } from './redact.js';

/**
 * How long one serialised `current_config` is shared: the stats in it are at most this old, and
 * the socket's next read_config_delta (the console asks each second) brings them up to date. Long
 * enough for a reload or a second console; a config change drops it sooner, and so does a change
 * log that no longer reaches back to it (events-hub.ts then builds a fresh one).
 */
export const FULL_MESSAGE_MAX_AGE_MS = 30_000;

interface Entry {
  version: number;
  revision: unknown;
  at: number;
  /** By whether the reader may see secrets: the message with them, and the one without. */
  texts: Map<boolean, string>;
  untrack: () => void;
  timer: NodeJS.Timeout;
}

/**
 * The `current_config` message as sent, serialised once and shared by the sockets that ask within
 * FULL_MESSAGE_MAX_AGE_MS (issue 20: at 50,000 streams it is ~13 MB and ~0.5 s of Node to build, per socket).
 * A socket that gets it reads its deltas from the version it shows; the cache holds a cursor in the
 * view's change log so those changes are kept. A config change (a new revision) drops it: the
 * message carries the revision a save is checked against. A view-only reader gets the redacted
 * message, built separately from the same version.
 */
export class FullMessageCache {
  private entry: Entry | undefined;

  constructor(
    private readonly view: LiveView,
    private readonly maxAgeMs = FULL_MESSAGE_MAX_AGE_MS,
  ) {}

  /** The message, and the version of the view it shows (where the socket's deltas start). */
  get(withSecrets: boolean): { text: string; version: number } {
    const revision = this.view.snapshot.config_revision;
    let entry = this.entry;
    const stale =
      entry &&
      (entry.revision !== revision ||
        Date.now() - entry.at > this.maxAgeMs ||
        // The other variant, built now, must show the same version as the one built before.
        (!entry.texts.has(withSecrets) && entry.version !== this.view.currentVersion));
    if (stale) this.drop();
    entry = this.entry ??= this.start(revision);
    let text = entry.texts.get(withSecrets);
    if (text === undefined) {
      const snapshot = this.view.snapshot;
      const data = withSecrets ? snapshot : redactSecrets(snapshot);
      text = JSON.stringify({ event: 'current_config', data, partial_update: false, revision });
      entry.texts.set(withSecrets, text);
    }
    return { text, version: entry.version };
  }

  /** Forgets the message (and lets the view's change log go). */
  drop(): void {
    if (!this.entry) return;
    this.entry.untrack();
    clearTimeout(this.entry.timer);
    this.entry = undefined;
  }

  private start(revision: unknown): Entry {
    const version = this.view.currentVersion;
    const untrack = this.view.track({ version });
    // Nothing holds the ~13 MB text, or the log behind its cursor, once no socket can use it.
    const timer = setTimeout(() => this.drop(), this.maxAgeMs).unref();
    return { version, revision, at: Date.now(), texts: new Map(), untrack, timer };
  }
}
