/**
 * Config deltas (spec 000 §7): a delta is nested by path; `null` deletes a key; any other value
 * replaces the old one, except plain objects, which merge key by key. Arrays are values: a delta
 * carrying an array replaces the whole array.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  for (const k of ak) if (!(k in bo) || !deepEqual(ao[k], bo[k])) return false;
  return true;
}

/** Copies a delta's value into a fresh tree with its nulls removed (a null inside a new object means "absent"). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = withoutNulls(v);
  return out;
}

/**
 * Returns `target` with `delta` applied. Neither argument is modified; subtrees the delta does not
 * touch are shared with `target`, so the cost grows with the size of the delta, not of the config.
 */
export function applyDelta<T>(target: T, delta: unknown): T {
  if (!isPlainObject(delta)) return withoutNulls(delta) as T;
  const base: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(delta)) {
    if (value === null || value === undefined) delete base[key];
    else if (isPlainObject(value) && isPlainObject(base[key])) base[key] = applyDelta(base[key], value);
    else base[key] = withoutNulls(value);
  }
  return base as T;
}

/**
 * The delta that turns `from` into `to`: applyDelta(from, diff(from, to)) deep-equals `to`.
 * Returns undefined when they are equal. Subtrees shared by reference are skipped at once, which is
 * what keeps a websocket delta cheap when only a few items changed.
 */
export function diff(from: unknown, to: unknown): unknown {
  if (from === to) return undefined;
  if (isPlainObject(from) && isPlainObject(to)) {
    const out: Record<string, unknown> = {};
    let changed = false;
    for (const key of Object.keys(from)) {
      if (!(key in to) || to[key] === undefined) {
        if (from[key] !== undefined) {
          out[key] = null;
          changed = true;
        }
      }
    }
    for (const [key, value] of Object.entries(to)) {
      if (value === undefined) continue;
      const d = diff(from[key], value);
      if (d !== undefined) {
        // A plain object that is new on this side must not be merged into a non-object there.
        out[key] = isPlainObject(value) && !isPlainObject(from[key]) ? value : d;
        changed = true;
      }
    }
    return changed ? out : undefined;
  }
  if (deepEqual(from, to)) return undefined;
  return to;
}
