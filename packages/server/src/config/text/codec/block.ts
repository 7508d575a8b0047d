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

/**
 * The state of decoding one block. A class rather than closures: a config holds tens of thousands
 * of blocks, and each closure would be one more object per block for the garbage collector.
 */
class BlockDecoder implements DecodeCtx {
  /** Where each path was first set, for the error on a second definition. */
  private readonly seen = new Map<string, Pos>();
  /** Paths set by appending or created as containers; every other path seen was set once. */
  private readonly modes = new Map<string, Mode>();
  private counters: Map<string, number> | undefined;

  constructor(
    readonly spec: BlockSpec,
    readonly out: Record<string, unknown>,
  ) {}

  private duplicate(path: readonly string[], length: number, pos: Pos) {
    const first = this.seen.get(id(path, length)) as Pos;
    return syntaxError(
      pos,
      `'${path.slice(0, length).join('.')}' is set twice (first at line ${first.line}, column ${first.column})`,
    );
  }

  /** Walks to the object holding the last key of `path`, creating merged containers on the way. */
  private parentOf(path: readonly string[], pos: Pos): Record<string, unknown> {
    let node = this.out;
    for (let k = 0; k < path.length - 1; k++) {
      const key = path[k] as string;
      const at = id(path, k + 1);
      if (this.seen.has(at)) {
        if (this.modes.get(at) !== 'merge') throw this.duplicate(path, k + 1, pos);
      } else {
        this.seen.set(at, pos);
        this.modes.set(at, 'merge');
        put(node, key, {});
      }
      node = node[key] as Record<string, unknown>;
    }
    return node;
  }

  set(path: readonly string[], value: unknown, pos: Pos): void {
    const parent = path.length === 1 ? this.out : this.parentOf(path, pos);
    const at = id(path, path.length);
    if (this.seen.has(at)) throw this.duplicate(path, path.length, pos);
    this.seen.set(at, pos);
    put(parent, path[path.length - 1] as string, value);
  }

  append(path: readonly string[], items: readonly unknown[], pos: Pos): void {
    const parent = path.length === 1 ? this.out : this.parentOf(path, pos);
    const key = path[path.length - 1] as string;
    const at = id(path, path.length);
    if (this.seen.has(at)) {
      if (this.modes.get(at) !== 'append') throw this.duplicate(path, path.length, pos);
    } else {
      this.seen.set(at, pos);
      this.modes.set(at, 'append');
      put(parent, key, []);
    }
    const list = parent[key] as unknown[];
    for (const item of items) list.push(item);
  }

  count(name: string): number {
    this.counters ??= new Map();
    const n = this.counters.get(name) ?? 0;
    this.counters.set(name, n + 1);
    return n;
  }
}

/**
 * Decodes the directives of one block into its JSON object. `into` receives the keys when given
 * (a section item already holding its name and position), else a new object.
 */
export function decodeBlock(
  spec: BlockSpec,
  entries: readonly Entry[],
  into: Record<string, unknown> = {},
): Decoded {
  const ctx = new BlockDecoder(spec, into);
  const anns: Ann[] = new Array<Ann>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const d = (entries[i] as Entry).directive;
    // A quoted name is always an ordinary key: that is how a key named like a directive is written.
    const handler = d.nameBare ? spec.byDirective.get(d.name) : undefined;
    anns[i] = handler ? handler.decode(d, ctx) : decodeGeneric(d, ctx);
  }
  return { value: into, anns };
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
