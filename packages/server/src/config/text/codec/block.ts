import { syntaxError } from '../errors.js';
import type { Entry, Pos } from '../tree.js';
import { decodeGeneric, encodeGeneric } from './generic.js';
import type { Ann, BlockSpec, CanonNode, DecodeCtx } from './spec.js';

export interface Decoded {
  value: Record<string, unknown>;
  /** One per entry, in order. */
  anns: Ann[];
}

/** Sets an own property, also `__proto__`, which plain assignment would take for the prototype. */
export function put(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty only where needed: it is slow and turns objects into slow dictionaries.
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

type Mode = 'set' | 'append' | 'merge';

const id = (path: readonly string[], length: number) =>
  length === 1 ? (path[0] as string) : path.slice(0, length).join('\u0000');

/** Thrown by a quick decode that met a path set twice: the block is read again to say where. */
const DUPLICATE = Symbol('duplicate');

/**
 * The state of decoding one block. A class rather than closures: a config holds tens of thousands
 * of blocks, and each closure would be one more object per block for the garbage collector.
 * A quick decoder finds a path set twice by the key already being there, and records only the
 * paths made by appending or as containers; a tracking one (used again on a duplicate, to report
 * where the path was first set) records every path with its position.
 */
class BlockDecoder implements DecodeCtx {
  /** Paths made by appending or as containers, with how. */
  private readonly modes: [string, Mode][] = [];
  /** Where each path was first set, when tracking. */
  private readonly seen: Map<string, Pos> | undefined;
  private counters: Map<string, number> | undefined;

  constructor(
    readonly spec: BlockSpec,
    readonly out: Record<string, unknown>,
    tracking: boolean,
  ) {
    this.seen = tracking ? new Map() : undefined;
  }

  private modeOf(at: string): Mode {
    for (const [path, mode] of this.modes) if (path === at) return mode;
    return 'set';
  }

  private duplicate(path: readonly string[], length: number, pos: Pos) {
    const first = this.seen?.get(id(path, length));
    if (!first) return DUPLICATE;
    return syntaxError(
      pos,
      `'${path.slice(0, length).join('.')}' is set twice (first at line ${first.line}, column ${first.column})`,
    );
  }

  private record(path: readonly string[], length: number, pos: Pos, mode: Mode): void {
    if (mode !== 'set') this.modes.push([id(path, length), mode]);
    this.seen?.set(id(path, length), pos);
  }

  /** Walks to the object holding the last key of `path`, creating merged containers on the way. */
  private parentOf(path: readonly string[], pos: Pos): Record<string, unknown> {
    let node = this.out;
    for (let k = 0; k < path.length - 1; k++) {
      const key = path[k] as string;
      if (Object.hasOwn(node, key)) {
        if (this.modeOf(id(path, k + 1)) !== 'merge') throw this.duplicate(path, k + 1, pos);
      } else {
        this.record(path, k + 1, pos, 'merge');
        put(node, key, {});
      }
      node = node[key] as Record<string, unknown>;
    }
    return node;
  }

  set(path: readonly string[], value: unknown, pos: Pos): void {
    const parent = path.length === 1 ? this.out : this.parentOf(path, pos);
    const key = path[path.length - 1] as string;
    if (Object.hasOwn(parent, key)) throw this.duplicate(path, path.length, pos);
    if (this.seen) this.record(path, path.length, pos, 'set');
    put(parent, key, value);
  }

  append(path: readonly string[], items: readonly unknown[], pos: Pos): void {
    const parent = path.length === 1 ? this.out : this.parentOf(path, pos);
    const key = path[path.length - 1] as string;
    if (Object.hasOwn(parent, key)) {
      if (this.modeOf(id(path, path.length)) !== 'append') throw this.duplicate(path, path.length, pos);
    } else {
      this.record(path, path.length, pos, 'append');
      put(parent, key, []);
    }
    const list = parent[key] as unknown[];
    for (const item of items) list.push(item);
  }

  valueAt(path: readonly string[]): unknown {
    let node: unknown = this.out;
    for (const key of path) node = (node as Record<string, unknown> | undefined)?.[key];
    return node;
  }

  count(name: string): number {
    this.counters ??= new Map();
    const n = this.counters.get(name) ?? 0;
    this.counters.set(name, n + 1);
    return n;
  }
}

function decodeWith(ctx: BlockDecoder, entries: readonly Entry[]): Ann[] {
  const { spec } = ctx;
  const anns: Ann[] = new Array<Ann>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const d = (entries[i] as Entry).directive;
    // A quoted name is always an ordinary key: that is how a key named like a directive is written.
    const handler = d.nameBare ? spec.byDirective.get(d.name) : undefined;
    anns[i] = handler ? handler.decode(d, ctx) : decodeGeneric(d, ctx);
  }
  return anns;
}

/**
 * Decodes the directives of one block into its JSON object. `into` receives the keys when given
 * (a section item already holding its name and position: keys its block cannot set), else a new
 * object.
 */
export function decodeBlock(
  spec: BlockSpec,
  entries: readonly Entry[],
  into: Record<string, unknown> = {},
): Decoded {
  try {
    return { value: into, anns: decodeWith(new BlockDecoder(spec, into, false), entries) };
  } catch (error) {
    if (error !== DUPLICATE) throw error;
    decodeWith(new BlockDecoder(spec, {}, true), entries);
    throw new Error('a path set twice was not found again', { cause: error });
  }
}

/** Keys this version does not know go between the declared keys and `last`, in their own order. */
const UNKNOWN_RANK = 1 << 29;

/** The keys of a block's value in canonical order (see BlockSpec.rank). */
export function orderedKeys(spec: BlockSpec, value: Record<string, unknown>): string[] {
  const keys = Object.keys(value);
  // A value holds few of the keys its schema declares: sort its own keys by rank rather than walk
  // the schema. Most values come in order already (the schema's, or the text's).
  const ranks = new Array<number>(keys.length);
  let sorted = true;
  for (let i = 0; i < keys.length; i++) {
    const r = spec.rank.get(keys[i] as string) ?? UNKNOWN_RANK + i;
    ranks[i] = r;
    if (i > 0 && r < (ranks[i - 1] as number)) sorted = false;
  }
  if (sorted) return keys;
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    const r = ranks[i] as number;
    let j = i - 1;
    for (; j >= 0 && (ranks[j] as number) > r; j--) {
      keys[j + 1] = keys[j] as string;
      ranks[j + 1] = ranks[j] as number;
    }
    keys[j + 1] = key;
    ranks[j + 1] = r;
  }
  return keys;
}

/** The canonical directives of value[key] in this block. */
export function encodeKey(spec: BlockSpec, key: string, value: unknown): CanonNode[] {
  return spec.byKey.get(key)?.encode(key, value, spec) ?? encodeGeneric(key, value, spec);
}

/** The canonical directives of a block's JSON object: declared keys in schema order, then unknown ones. */
export function encodeBlock(spec: BlockSpec, value: Record<string, unknown>): CanonNode[] {
  const nodes: CanonNode[] = [];
  for (const key of orderedKeys(spec, value)) {
    const v = value[key];
    if (v === undefined || Object.hasOwn(spec.omit, key)) continue;
    for (const node of encodeKey(spec, key, v)) nodes.push(node);
  }
  return nodes;
}
