import { syntaxError } from '../errors.js';
import { declaredKeys } from '../schema-hints.js';
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

/** Decodes the directives of one block into its JSON object. */
export function decodeBlock(spec: BlockSpec, entries: readonly Entry[]): Decoded {
  const out: Record<string, unknown> = {};
  const seen = new Map<string, { pos: Pos; mode: Mode }>();
  const counters = new Map<string, number>();
  const id = (path: readonly string[], length: number) =>
    length === 1 ? (path[0] as string) : path.slice(0, length).join('\u0000');
  const duplicate = (path: readonly string[], first: Pos, pos: Pos) =>
    syntaxError(
      pos,
      `'${path.join('.')}' is set twice (first at line ${first.line}, column ${first.column})`,
    );

  /** Walks to the object holding the last key of `path`, creating merged containers on the way. */
  const parentOf = (path: readonly string[], pos: Pos): Record<string, unknown> => {
    let node = out;
    for (let k = 0; k < path.length - 1; k++) {
      const key = path[k] as string;
      const prev = seen.get(id(path, k + 1));
      if (prev && prev.mode !== 'merge') throw duplicate(path.slice(0, k + 1), prev.pos, pos);
      if (!prev) {
        seen.set(id(path, k + 1), { pos, mode: 'merge' });
        put(node, key, {});
      }
      node = node[key] as Record<string, unknown>;
    }
    return node;
  };

  const ctx: DecodeCtx = {
    spec,
    set(path, value, pos) {
      const parent = parentOf(path, pos);
      const prev = seen.get(id(path, path.length));
      if (prev) throw duplicate(path, prev.pos, pos);
      seen.set(id(path, path.length), { pos, mode: 'set' });
      put(parent, path[path.length - 1] as string, value);
    },
    append(path, items, pos) {
      const parent = parentOf(path, pos);
      const key = path[path.length - 1] as string;
      const prev = seen.get(id(path, path.length));
      if (prev && prev.mode !== 'append') throw duplicate(path, prev.pos, pos);
      if (!prev) {
        seen.set(id(path, path.length), { pos, mode: 'append' });
        put(parent, key, []);
      }
      (parent[key] as unknown[]).push(...items);
    },
    count(name) {
      const n = counters.get(name) ?? 0;
      counters.set(name, n + 1);
      return n;
    },
  };

  const anns = entries.map(({ directive: d }) => {
    // A quoted name is always an ordinary key: that is how a key named like a directive is written.
    const handler = d.nameBare ? spec.handlers.find((h) => h.directive === d.name) : undefined;
    return handler ? handler.decode(d, ctx) : decodeGeneric(d, ctx);
  });
  return { value: out, anns };
}

function orderedKeys(spec: BlockSpec, value: Record<string, unknown>): string[] {
  const declared = declaredKeys(spec.schema);
  const last = new Set(spec.last);
  const known = new Set(declared);
  return [
    ...declared.filter((k) => Object.hasOwn(value, k) && !last.has(k)),
    ...Object.keys(value).filter((k) => !known.has(k) && !last.has(k)),
    ...spec.last.filter((k) => Object.hasOwn(value, k)),
  ];
}

/** The canonical directives of a block's JSON object: declared keys in schema order, then unknown ones. */
export function encodeBlock(spec: BlockSpec, value: Record<string, unknown>): CanonNode[] {
  const nodes: CanonNode[] = [];
  for (const key of orderedKeys(spec, value)) {
    const v = value[key];
    if (Object.hasOwn(spec.omit, key) || v === undefined) continue;
    const handler = spec.handlers.find((h) => h.keys.includes(key));
    nodes.push(...(handler?.encode(key, v, spec) ?? encodeGeneric(key, v, spec)));
  }
  return nodes;
}
