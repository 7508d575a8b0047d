import { applyDelta, isPlainObject } from '@sluice/api';
import type { Path } from './edits.js';

/**
 * The server's live view as the console holds it. Narrow objects (an item, its stats, the globals)
 * are immutable and copied along a delta's paths, so a selector sees a new identity exactly where
 * something changed. Wide objects — item maps such as `streams`, WIDE_KEYS keys or more — are
 * updated in place and their revision bumped: copying a 20,000-key map costs ~6 ms, and doing that
 * for every delta would make a delta's cost grow with the number of streams instead of its size.
 * A wide map's identity therefore survives changes to its values; whoever needs to follow them
 * reads the items, or `revisionOf` the map.
 */
export const WIDE_KEYS = 64;

type Tree = Record<string, unknown>;
const sizes = new WeakMap<object, number>();
const revisions = new WeakMap<object, number>();

/**
 * The keys each in-place change of a wide map touched, newest last, so that whoever follows a
 * 20,000-stream map can look at the few items a delta changed instead of scanning them all.
 * Kept to CHANGE_LOG_LIMIT keys per map; a reader further behind scans.
 */
export const CHANGE_LOG_LIMIT = 50_000;
interface ChangeLog {
  /** The revision the oldest kept entry belongs to. */
  from: number;
  revisions: number[];
  keys: string[];
}
const changeLogs = new WeakMap<object, ChangeLog>();

function logChanges(node: object, revision: number, keys: readonly string[]): void {
  let log = changeLogs.get(node);
  if (!log) changeLogs.set(node, (log = { from: revision, revisions: [], keys: [] }));
  for (const key of keys) {
    log.revisions.push(revision);
    log.keys.push(key);
  }
  if (log.keys.length > CHANGE_LOG_LIMIT) {
    // Drop whole revisions from the front, so `from` stays exact.
    const cut = log.keys.length - CHANGE_LOG_LIMIT;
    const dropRevision = log.revisions[cut - 1]!;
    let at = cut;
    while (at < log.revisions.length && log.revisions[at] === dropRevision) at++;
    log.revisions.splice(0, at);
    log.keys.splice(0, at);
    log.from = dropRevision + 1;
  }
}

/**
 * The keys of the wide map `node` changed in place after `revision` (possibly with repeats), or
 * undefined when that is no longer known (the caller then looks at every key).
 */
export function changedKeysSince(node: unknown, revision: number): string[] | undefined {
  if (!isPlainObject(node)) return undefined;
  const current = revisionOf(node);
  if (revision === current) return [];
  const log = changeLogs.get(node);
  if (!log || revision < log.from - 1 || revision > current) return undefined;
  let start = log.revisions.length;
  while (start > 0 && log.revisions[start - 1]! > revision) start--;
  return log.keys.slice(start);
}

function sizeOf(node: Tree): number {
  let size = sizes.get(node);
  if (size === undefined) {
    size = Object.keys(node).length;
    sizes.set(node, size);
  }
  return size;
}

/** How many times a wide map was changed in place (0 for anything else). */
export function revisionOf(node: unknown): number {
  return isPlainObject(node) ? (revisions.get(node) ?? 0) : 0;
}

export function getIn(root: unknown, path: Path): unknown {
  let node = root;
  for (const key of path) node = isPlainObject(node) ? node[key] : undefined;
  return node;
}

/** applyDelta's semantics (nested merge, null deletes, arrays replaced) with wide maps changed in place. */
export function applyServerDelta(target: unknown, delta: unknown): unknown {
  if (!isPlainObject(delta) || !isPlainObject(target)) return applyDelta(undefined, delta);
  const wide = sizeOf(target) >= WIDE_KEYS;
  const out: Tree = wide ? target : { ...target };
  let size = sizeOf(target);
  for (const [key, value] of Object.entries(delta)) {
    const had = Object.hasOwn(out, key);
    if (value === null || value === undefined) {
      if (had) size--;
      delete out[key];
    } else {
      out[key] = applyServerDelta(out[key], value);
      if (!had) size++;
    }
  }
  sizes.set(out, size);
  if (wide) {
    const revision = revisionOf(out) + 1;
    revisions.set(out, revision);
    logChanges(out, revision, Object.keys(delta));
  }
  return out;
}

/**
 * The value at `path` of `root` with the overlay deltas applied in order (saved-but-unconfirmed,
 * then unsaved edits). Descends all of them together, so only the overlays under `path` are
 * applied; with none there, the server's own node is returned as it is.
 */
export function overlayAt(
  root: unknown,
  overlays: readonly unknown[],
  path: Path,
): { node: unknown; layers: unknown[] } {
  let node = root;
  let layers: unknown[] = overlays.filter((o) => o !== undefined);
  for (const key of path) {
    node = isPlainObject(node) ? node[key] : undefined;
    const next: unknown[] = [];
    for (const layer of layers) {
      const value = isPlainObject(layer) ? layer[key] : undefined;
      if (value === undefined) continue;
      if (isPlainObject(value)) {
        next.push(value);
      } else {
        // A scalar, array or null here replaces whatever the earlier layers and the server said.
        node = value === null ? undefined : applyDelta(undefined, value);
        next.length = 0;
      }
    }
    layers = next;
  }
  return { node, layers };
}

interface MemoEntry {
  node: unknown;
  revision: number;
  layers: unknown[];
  value: unknown;
}

/** Applies overlays to a node, remembering the result per path so its identity is stable. */
export class OverlayMemo {
  private readonly entries = new Map<string, MemoEntry>();

  read(root: unknown, overlays: readonly unknown[], path: Path): unknown {
    const { node, layers } = overlayAt(root, overlays, path);
    if (layers.length === 0) return node;
    const key = path.join('\u0000');
    const hit = this.entries.get(key);
    const revision = revisionOf(node);
    if (hit && hit.node === node && hit.revision === revision && sameItems(hit.layers, layers))
      return hit.value;
    const value = layers.reduce((acc, layer) => applyDelta(acc, layer), node);
    this.entries.set(key, { node, revision, layers, value });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
