import type { Verdict } from './play-request.js';

/** How long an answer holds when the backend gave no X-AuthDuration. */
export const DEFAULT_ANSWER_TTL_MS = 180_000;
/** Above this many remembered answers the oldest go first. */
const MAX_ENTRIES = 100_000;

interface Entry {
  verdict: Verdict;
  expiresAt: number;
  /** The auth settings the answer was given under: an edit of them forgets it. */
  settings: object;
}

/**
 * Answers of HTTP backends per session (stream, protocol, address, token or user agent), so
 * an HLS player's segments do not each call the backend.
 */
export class DecisionCache {
  private readonly entries = new Map<string, Entry>();

  get(key: string, settings: object, nowMs: number): Verdict | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= nowMs || entry.settings !== settings) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.verdict;
  }

  set(key: string, settings: object, verdict: Verdict, nowMs: number): void {
    if (this.entries.size >= MAX_ENTRIES) {
      for (const [k, e] of this.entries) if (e.expiresAt <= nowMs) this.entries.delete(k);
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(key, { verdict, settings, expiresAt: nowMs + (verdict.ttlMs ?? DEFAULT_ANSWER_TTL_MS) });
  }
}
