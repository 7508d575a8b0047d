import { applyDelta, deepEqual, diff, isPlainObject } from '@sluice/api';

/**
 * Local edits (spec 000 §4 "Config synchronisation", "Editing"): a delta against the server's config,
 * nested by path, null deleting. Every function here costs in proportion to the edits, never to the
 * config, and returns its input unchanged (same reference) when nothing changes.
 */
export type Delta = Record<string, unknown>;
export type Path = readonly string[];

/** Sets (or, with undefined, removes) a value in a delta, pruning parents left empty. */
function setIn(node: Delta, path: Path, value: unknown): Delta {
  const [key, ...rest] = path;
  if (key === undefined) return node;
  if (rest.length === 0) {
    if (value === undefined) {
      if (!(key in node)) return node;
      const { [key]: _removed, ...others } = node;
      return others;
    }
    return node[key] === value ? node : { ...node, [key]: value };
  }
  const child = isPlainObject(node[key]) ? (node[key] as Delta) : {};
  if (value === undefined && !(key in node)) return node;
  const next = setIn(child, rest, value);
  if (next === child) return node;
  return Object.keys(next).length === 0 ? setIn(node, [key], undefined) : { ...node, [key]: next };
}

/**
 * Records that the field at `path` should read `value` (null or undefined: deleted), as the
 * smallest delta against `current`, the saved value there. Setting a field back to the saved value
 * removes its edit, so the changed flag follows what differs, not what was touched.
 */
export function setEdit(edits: Delta, current: unknown, path: Path, value: unknown): Delta {
  if (value === null || value === undefined)
    return setIn(edits, path, current === undefined ? undefined : null);
  const delta = diff(current, value);
  return setIn(
    edits,
    path,
    delta === undefined ? undefined : isPlainObject(value) && !isPlainObject(current) ? value : delta,
  );
}

/** True when applying `delta` to `base` would change nothing. */
function isNoOp(delta: unknown, base: unknown): boolean {
  if (delta === null) return base === undefined;
  if (isPlainObject(delta) && isPlainObject(base)) {
    return Object.entries(delta).every(([k, v]) => isNoOp(v, base[k]));
  }
  return deepEqual(applyDelta(undefined, delta), base);
}

/**
 * Drops the edits the server now matches (spec 000 §4: cleared once the server state matches).
 * `baseAt` reads the saved value at a path.
 */
export function pruneEdits(edits: Delta, baseAt: (path: Path) => unknown, prefix: Path = []): Delta {
  let out = edits;
  for (const [key, value] of Object.entries(edits)) {
    const baseValue = baseAt([...prefix, key]);
    if (isPlainObject(value) && isPlainObject(baseValue)) {
      const pruned = pruneEdits(value, baseAt, [...prefix, key]);
      if (pruned !== value) out = setIn(out, [key], Object.keys(pruned).length === 0 ? undefined : pruned);
    } else if (isNoOp(value, baseValue)) {
      out = setIn(out, [key], undefined);
    }
  }
  return out;
}

/** The edits left once `saved` has gone to the server: those typed since the save began stay. */
export function subtractDelta(edits: Delta, saved: Delta): Delta {
  let out = edits;
  for (const [key, value] of Object.entries(saved)) {
    if (!(key in edits)) continue;
    const mine = edits[key];
    if (isPlainObject(mine) && isPlainObject(value) && !deepEqual(mine, value)) {
      const rest = subtractDelta(mine, value);
      if (rest !== mine) out = setIn(out, [key], Object.keys(rest).length === 0 ? undefined : rest);
    } else if (deepEqual(mine, value)) {
      out = setIn(out, [key], undefined);
    }
  }
  return out;
}

/** Merges two deltas: the later one wins where they overlap. */
export function mergeDeltas(first: Delta, second: Delta): Delta {
  if (Object.keys(first).length === 0) return second;
  const out: Delta = { ...first };
  for (const [key, value] of Object.entries(second)) {
    const earlier = out[key];
    out[key] = isPlainObject(earlier) && isPlainObject(value) ? mergeDeltas(earlier, value) : value;
  }
  return out;
}

/** The part of a delta under the given top-level keys (a form's scope). */
export function pickKeys(delta: Delta, keys: readonly string[]): Delta {
  const out: Delta = {};
  for (const key of keys) if (key in delta) out[key] = delta[key];
  return out;
}
