import { isPlainObject } from '@sluice/api';
import { encodeKey, orderedKeys } from './codec/block.js';
import { sectionItems } from './codec/items.js';
import type { BlockSpec, CanonNode, SectionItems } from './codec/spec.js';
import { groupBy } from './slots.js';

/**
 * The new directives of one top-level group: the items of a section, or one global setting. Items
 * are encoded only when asked for: an item kept for its value is never encoded at all.
 */
export interface NewGroup {
  group: string;
  size: number;
  /** Paired with the old ones by key (named items), else by content then order. */
  keyed: boolean;
  /** Per new directive: its key (named items only) and its JSON value. */
  keys: readonly (string | undefined)[];
  values: readonly unknown[];
  node(j: number): CanonNode;
  /** Whether directive j means what an old one read as (or written from) `old` says. */
  same(j: number, old: unknown): boolean;
}

/**
 * Whether two JSON values are equal (as deepEqual says), with `skip` keys of the outer object left
 * out. It makes no arrays of keys: it runs over every item of a config on the first edit after a
 * load, when no item is shared with the document yet.
 */
function sameJson(a: unknown, b: unknown, skip?: (key: string) => boolean): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let left = 0;
  for (const k in x) {
    if (!Object.hasOwn(x, k) || skip?.(k)) continue;
    if (!Object.hasOwn(y, k) || !sameJson(x[k], y[k])) return false;
    left++;
  }
  for (const k in y) if (Object.hasOwn(y, k) && !skip?.(k)) left--;
  return left === 0;
}

/**
 * Whether two items mean the same text. `position` and the key field are left out: the order of
 * the file and the header say them, and normalizeConfig copies an item whose position shifted.
 */
export function sameItem(a: unknown, b: unknown, section: SectionItems | undefined): boolean {
  if (a === b) return true;
  if (!section?.positioned) return sameJson(a, b);
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  return sameJson(a, b, (k) => k === 'position' || k === section.keyField);
}

function sectionGroup(
  group: string,
  section: SectionItems,
  items: { keys: string[]; values: unknown[] },
): NewGroup {
  const { keys, values } = items;
  const nodes = new Array<CanonNode | undefined>(keys.length);
  return {
    group,
    size: keys.length,
    keyed: section.keyed,
    keys: section.keyed ? keys : new Array<undefined>(keys.length),
    values,
    node: (j) => (nodes[j] ??= section.encodeItem(keys[j] as string, values[j] as Record<string, unknown>)),
    same: (j, old) => sameItem(old, values[j], section),
  };
}

function settingGroup(group: string, nodes: CanonNode[], value: unknown): NewGroup {
  return {
    group,
    size: nodes.length,
    keyed: nodes.every((n) => n.key !== undefined),
    keys: nodes.map((n) => n.key),
    values: nodes.map(() => value),
    node: (j) => nodes[j] as CanonNode,
    // One directive holds the whole value: equal values mean equal text.
    same: (_j, old) => nodes.length === 1 && sameJson(old, value),
  };
}

/** The new groups in the order the canonical writer puts them; undefined if two keys share a group. */
export function newGroups(spec: BlockSpec, config: Record<string, unknown>): NewGroup[] | undefined {
  const groups = new Map<string, NewGroup>();
  const add = (g: NewGroup) => !groups.has(g.group) && groups.set(g.group, g);
  for (const key of orderedKeys(spec, config)) {
    const v = config[key];
    if (v === undefined || Object.hasOwn(spec.omit, key)) continue;
    const handler = spec.byKey.get(key);
    const items = handler?.section && sectionItems(handler.section, v);
    if (handler?.section && items) {
      if (!add(sectionGroup(handler.directive, handler.section, items))) return undefined;
      continue;
    }
    const nodes = encodeKey(spec, key, v);
    for (const [group, list] of groupBy(nodes, (n) => n.group)) {
      if (!add(settingGroup(group, list, v))) return undefined;
    }
  }
  return [...groups.values()];
}
