import { isPlainObject } from '@sluice/api';
import type { ChangeScope } from './store.js';

/** Sections whose items are edited one by one: two edits of different items there do not clash. */
const ITEM_SECTIONS = new Set(['streams', 'lives', 'sources', 'vods', 'dvrs', 'auth_backends', 'peers']);

/** What a modify_config delta touches: each top-level key, with its item keys in an item section. */
export function scopeOfDelta(delta: Record<string, unknown>): ChangeScope {
  const scope: ChangeScope = new Map();
  for (const [key, value] of Object.entries(delta)) {
    scope.set(key, ITEM_SECTIONS.has(key) && isPlainObject(value) ? Object.keys(value) : 'all');
  }
  return scope;
}

/**
 * The last commits, each as the revision it started from and what it touched, so a save based on
 * an older revision can be checked against what changed since: a form's save of stream A is not
 * refused because stream B changed meanwhile (the edit is a delta and keeps B's change), but is
 * when A changed. Bounded: a revision older than the log is treated as "anything may have changed".
 */
export class RevisionLog {
  private entries: { from: string; scope: ChangeScope | undefined }[] = [];

  constructor(private readonly limit = 500) {}

  /** A commit from revision `from`; `scope` undefined: the whole config may have changed. */
  record(from: string, scope: ChangeScope | undefined): void {
    this.entries.push({ from, scope });
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
  }

  /**
   * True when a change made since `base` touched something `touched` touches (undefined: all of it).
   * An unknown base (too old, or never this server's) counts as a conflict.
   */
  conflicts(base: string, current: string, touched: ChangeScope | undefined): boolean {
    if (base === current) return false;
    // The latest commit that started from `base`: a text that came back to an earlier revision
    // is the same config, so what happened before that return does not matter.
    let start = -1;
    for (let i = this.entries.length - 1; i >= 0; i--) {
      if (this.entries[i]!.from === base) {
        start = i;
        break;
      }
    }
    if (start < 0 || touched === undefined) return true;
    for (const { scope } of this.entries.slice(start)) {
      if (scope === undefined) return true;
      for (const [key, items] of touched) {
        const theirs = scope.get(key);
        if (theirs === undefined) continue;
        if (theirs === 'all' || items === 'all') return true;
        if (items.some((item) => theirs.includes(item))) return true;
      }
    }
    return false;
  }
}
