import { deepEqual, isPlainObject } from '@sluice/api';
import type { Delta, Path } from './edits.js';
import { getIn } from './live-tree.js';

/**
 * Concurrent edits (issue 17): each item with unsaved edits remembers the config revision its
 * first edit was made at, which its save sends as If-Match: the server refuses the save (409) when
 * someone else changed that item since, instead of letting it silently undo their change.
 */

/** Sections edited item by item: an edit's item is the section and the item's key. */
const ITEM_SECTIONS = new Set(['streams', 'lives', 'sources', 'vods', 'dvrs', 'auth_backends', 'peers']);

/** Fields of an item that change without anyone editing it: live figures, positions others shift. */
const NOT_EDITED = new Set(['stats', 'position', 'streams', 'name', 'prefix']);

/** The item an edit at `path` belongs to: ['streams', 'a'] for any path under stream a; ['http'] for a top-level key. */
export function itemPathOf(path: Path): Path {
  return ITEM_SECTIONS.has(path[0] ?? '') && path.length >= 2 ? path.slice(0, 2) : path.slice(0, 1);
}

export const itemKeyOf = (path: Path): string => itemPathOf(path).join('\u0000');
export const pathOfKey = (key: string): Path => key.split('\u0000');

/** Where an item's base revision was taken, in order: the oldest of several is the one a save sends. */
export interface EditBase {
  revision: string | undefined;
  order: number;
}

/** True when a server delta changes the item at `path` in what an operator edits (not its stats). */
export function deltaTouches(delta: Delta, path: Path): boolean {
  const change = getIn(delta, path);
  if (change === undefined) return false;
  if (!isPlainObject(change) || path.length < 2) return true;
  return Object.keys(change).some((field) => !NOT_EDITED.has(field));
}

/** True when the item's edited fields differ between two whole configs (a full read after a reconnect). */
export function itemDiffers(before: unknown, after: unknown): boolean {
  const strip = (item: unknown) => {
    if (!isPlainObject(item)) return item;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(item)) if (!NOT_EDITED.has(k)) out[k] = v;
    return out;
  };
  return !deepEqual(strip(before), strip(after));
}

/** The item keys of `bases` that still hold edits; the others' bases and flags are dropped. */
export function keepEdited<T>(entries: Readonly<Record<string, T>>, edits: Delta): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of Object.entries(entries))
    if (getIn(edits, pathOfKey(key)) !== undefined) out[key] = value;
  return out;
}
