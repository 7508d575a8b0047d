import { isPlainObject } from '@sluice/api';
import type { BlockSpec } from './codec/spec.js';
import type { DocumentState } from './document.js';
import { sameItem } from './new-groups.js';
import { textOf } from './printer.js';
import { canonicalOf } from './slots.js';
import { finishTop, TopPlan, type TopMerge } from './top-merge.js';

/**
 * The items of the config that may differ from what the document holds: for each section (its
 * JSON key, `streams`), the keys of existing items whose fields an edit may have changed. The
 * caller promises that everything else in the config means what the document holds, and that no
 * item was added, removed or moved (the store's in-place edits, config/in-place.ts).
 */
export type ItemChanges = ReadonlyMap<string, readonly string[] | 'all'>;

/** Where each named top-level entry is, built once per document and handed on by a splice. */
export interface TopIndex {
  /** `group \0 key` → entry index; -1 when two entries name the same item. */
  byKey: Map<string, number>;
  /** Each entry's index among the entries of its group. */
  inGroup: Int32Array;
  sizes: Map<string, number>;
  /** Groups with an entry that names no item: pair() would match them by content, not by key. */
  unkeyed: Set<string>;
}

const indexes = new WeakMap<DocumentState, TopIndex>();

function indexOf(state: DocumentState): TopIndex {
  let index = indexes.get(state);
  if (index) return index;
  const byKey = new Map<string, number>();
  const inGroup = new Int32Array(state.anns.length);
  const sizes = new Map<string, number>();
  const unkeyed = new Set<string>();
  state.anns.forEach((ann, i) => {
    const size = sizes.get(ann.group) ?? 0;
    inGroup[i] = size;
    sizes.set(ann.group, size + 1);
    if (ann.key === undefined) return void unkeyed.add(ann.group);
    const id = `${ann.group}\0${ann.key}`;
    byKey.set(id, byKey.has(id) ? -1 : i);
  });
  index = { byKey, inGroup, sizes, unkeyed };
  indexes.set(state, index);
  return index;
}

/** The next document of a splice has its entries where the previous one had them: same index. */
export function handOnIndex(from: DocumentState, to: DocumentState): void {
  const index = indexes.get(from);
  if (index && to.anns.length === from.anns.length) indexes.set(to, index);
}

/**
 * The merge mergeTop makes, for an edit of the fields of a few existing items: every other entry
 * keeps its place for the value the document holds, so the 20,000 items of a big section are
 * neither enumerated nor paired; the edited ones are re-printed in their place exactly as pair()
 * would (same item kinds), and emit copies the rest as runs of the old text. Undefined when the
 * edit is not of that kind: the caller then takes the whole merge.
 */
export function spliceTop(
  spec: BlockSpec,
  state: DocumentState,
  config: Record<string, unknown>,
  changes: ItemChanges,
): TopMerge | undefined {
  if (changes.size === 0) return undefined;
  const index = indexOf(state);
  const plan = new TopPlan(spec, state);
  plan.keepAll(state.values, index.inGroup);
  const { entries } = state.tree;
  const changed: number[] = [];
  for (const [key, names] of changes) {
    const handler = spec.byKey.get(key);
    const section = handler?.section;
    const items = config[key];
    if (names === 'all' || !handler || !section?.keyed || !isPlainObject(items)) return undefined;
    if (Object.hasOwn(spec.omit, key) || index.unkeyed.has(handler.directive)) return undefined;
    for (const name of names) {
      const i = index.byKey.get(`${handler.directive}\0${name}`);
      const value = items[name];
      if (i === undefined || i < 0 || !isPlainObject(value)) return undefined;
      const j = index.inGroup[i] as number;
      if (sameItem(state.values[i], value, section)) {
        plan.keepValue(i, j, value);
        continue;
      }
      const slot = plan.slot(i);
      changed.push(i);
      const canon = canonicalOf(entries[i] as (typeof entries)[number], spec);
      const node = section.encodeItem(name, value);
      plan.setItem(
        i,
        canon && textOf(canon) === textOf(node)
          ? { kind: 'keep', slot, index: j, value, checked: false, canon: node }
          : { kind: 'edit', slot, node, index: j, value, checked: false },
      );
    }
  }
  // Ascending and distinct (a name may be listed twice): the sequence walks only these.
  const order = [...new Set(changed)].sort((a, b) => a - b);
  return finishTop(spec, state, plan, index.sizes, order);
}
