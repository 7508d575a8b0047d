import { isPlainObject } from '@sluice/api';
import { encodeBlock } from './block.js';
import type { BlockSpec, CanonNode, SectionItems } from './spec.js';

type Items = Record<string, Record<string, unknown>>;

function rank(item: Record<string, unknown>): number {
  const p = item.position;
  return typeof p === 'number' && Number.isFinite(p) ? p : Number.POSITIVE_INFINITY;
}

/** The keys of keyed items sorted by `position`; items without one go last, ties keep key order. */
export function byPosition(items: Items): string[] {
  const keys = Object.keys(items);
  // A config fresh from the store or the text lists its items in order already: check before sorting.
  let previous = Number.NEGATIVE_INFINITY;
  let sorted = true;
  for (const key of keys) {
    const r = rank(items[key] as Record<string, unknown>);
    if (r < previous) {
      sorted = false;
      break;
    }
    previous = r;
  }
  if (sorted) return keys;
  return keys
    .map((key, i) => ({ key, i, p: rank(items[key] as Record<string, unknown>) }))
    .sort((a, b) => (a.p === b.p ? a.i - b.i : a.p < b.p ? -1 : 1))
    .map((x) => x.key);
}

/** Whether a value can be written as items of a section: a non-empty record of plain objects. */
export function allPlainObjects(value: unknown): value is Items {
  if (!isPlainObject(value)) return false;
  let any = false;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (!isPlainObject(value[key])) return false;
    any = true;
  }
  return any;
}

/** The directives of every item of a section, in their order; undefined when it cannot take this form. */
export function encodeItems(section: SectionItems, value: unknown): CanonNode[] | undefined {
  if (!allPlainObjects(value)) return undefined;
  const keys = section.order(value);
  const nodes = new Array<CanonNode>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    nodes[i] = section.encodeItem(key, value[key] as Record<string, unknown>);
  }
  return nodes;
}

/** The directive of an item with a block, as every section writes it. */
export function bodyNode(
  name: string,
  args: string[],
  key: string | undefined,
  spec: BlockSpec,
  value: Record<string, unknown>,
): CanonNode {
  return { name, args, group: name, key, body: { spec, value, children: encodeBlock(spec, value) } };
}
