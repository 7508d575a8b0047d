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
  return ordered(
    keys,
    keys.map((k) => items[k] as Record<string, unknown>),
  ).keys;
}

/** Sorts keys and items together by `position`, unless they come in order already (the usual case). */
function ordered(keys: string[], values: Record<string, unknown>[]): { keys: string[]; values: unknown[] } {
  let previous = Number.NEGATIVE_INFINITY;
  let sorted = true;
  for (const value of values) {
    const r = rank(value);
    if (r < previous) {
      sorted = false;
      break;
    }
    previous = r;
  }
  if (sorted) return { keys, values };
  const order = keys
    .map((_k, i) => ({ i, p: rank(values[i] as Record<string, unknown>) }))
    .sort((a, b) => (a.p === b.p ? a.i - b.i : a.p < b.p ? -1 : 1));
  return { keys: order.map((x) => keys[x.i] as string), values: order.map((x) => values[x.i]) };
}

/**
 * The items of a section in the order they are written, with their keys; undefined unless the
 * value is a non-empty record of plain objects (else it is written as a generic key). One pass
 * over the record: a section may hold tens of thousands of items.
 */
export function sectionItems(
  section: SectionItems,
  value: unknown,
): { keys: string[]; values: unknown[] } | undefined {
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length === 0) return undefined;
  const values = new Array<Record<string, unknown>>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const item = value[keys[i] as string];
    if (!isPlainObject(item)) return undefined;
    values[i] = item;
  }
  return section.positioned ? ordered(keys, values) : { keys, values };
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
  const items = sectionItems(section, value);
  if (!items) return undefined;
  return items.keys.map((key, i) => section.encodeItem(key, items.values[i] as Record<string, unknown>));
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
