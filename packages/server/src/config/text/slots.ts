import { decodeBlock, encodeBlock } from './codec/block.js';
import type { Ann, BlockSpec, CanonNode } from './codec/spec.js';
import type { Entry } from './tree.js';
import { splitLeading } from './trivia.js';

/** How new directives are laid out in a block (or the file) being merged. */
export interface Layout {
  indent: string;
  /** The block holds its children on one line, `{ a; b; }`: new ones join that line. */
  inline: boolean;
  atLineStart: boolean;
  eol: string;
  top: boolean;
  /** Told where each directive's own text lands in the output (the top level, for the next document). */
  place?: (item: Item, start: number, text: string) => void;
  /** Told where each run lands in the output. */
  placeRun?: (run: Run, start: number) => void;
}

/**
 * Old top-level entries `first`…`last`, each kept in place for its value with nothing new around
 * it, after an entry kept the same way: written as they were, one span of the old text, with no
 * work per entry (see top-merge.ts).
 */
export interface Run {
  run: true;
  first: number;
  last: number;
  text: string;
  /** The group of the last entry. */
  group: string;
}

/** Set on the items of the top level, for building and checking the next document. */
export interface TopNew {
  /** Its place among the new directives of its group: the order they must appear in. */
  index?: number;
  /** The JSON value it writes; the next document remembers it. */
  value?: unknown;
  /** Known to read back as `value` (kept for the same value); otherwise it is read back alone. */
  checked?: boolean;
  /** For a kept directive not checked: the canonical form of `value`. */
  canon?: CanonNode;
}

export type Item = (
  | { kind: 'keep'; slot: Slot }
  | { kind: 'edit'; slot: Slot; node: CanonNode }
  | { kind: 'fresh'; node: CanonNode }
) &
  TopNew;

/** An old directive and the new directives that go in its place, before it and after it. */
export interface Slot {
  entry: Entry;
  /** The entry's index in its block. */
  index: number;
  ann: Ann;
  detached: string;
  attached: string;
  attachedAtLineStart: boolean;
  item?: Item;
  /** Set while pairing a group: a new directive continues this one. */
  partnered: boolean;
  // Most slots get nothing around them: the lists are made on the first push.
  before?: Item[];
  after?: Item[];
}

export function makeSlots(entries: readonly Entry[], anns: readonly Ann[], atLineStart: boolean): Slot[] {
  let lineStart = atLineStart;
  const slots = new Array<Slot>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as Entry;
    const { detached, attached } = splitLeading(entry.leading, lineStart);
    slots[i] = {
      entry,
      index: i,
      ann: anns[i] as Ann,
      detached,
      attached,
      attachedAtLineStart: detached !== '' || lineStart,
      item: undefined,
      partnered: false,
      before: undefined,
      after: undefined,
    };
    lineStart = entry.trailing.endsWith('\n');
  }
  return slots;
}

export function pushAfter(slot: Slot, item: Item): void {
  (slot.after ??= []).push(item);
}

/**
 * Where a new directive of `group` goes when it has no old place: after `last` (the last old one
 * of its group); else a new section at the end of the file, a new global after the other globals.
 */
export function anchorFor(
  spec: BlockSpec,
  slots: readonly Slot[],
  layout: Layout,
  end: Item[],
): (group: string, last: Slot | undefined, item: Item) => void {
  const isSection = (group: string) => layout.top && spec.sections.has(group);
  return (group, last, item) => {
    if (last) return pushAfter(last, item);
    if (!layout.top || isSection(group)) return void end.push(item);
    const lastGlobal = slots.findLast((s) => !isSection(s.ann.group));
    if (lastGlobal) return pushAfter(lastGlobal, item);
    const first = slots[0];
    if (first) (first.before ??= []).push(item);
    else end.push(item);
  };
}

export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

const canonCache = new WeakMap<BlockSpec, WeakMap<Entry, CanonNode | null>>();

/** The canonical form of one old directive, read on its own in its block; undefined when it is not one node. */
export function canonicalOf(entry: Entry, spec: BlockSpec): CanonNode | undefined {
  let bySpec = canonCache.get(spec);
  if (!bySpec) canonCache.set(spec, (bySpec = new WeakMap()));
  let node = bySpec.get(entry);
  if (node === undefined) {
    try {
      const nodes = encodeBlock(spec, decodeBlock(spec, [entry]).value);
      node = nodes.length === 1 ? (nodes[0] as CanonNode) : null;
    } catch {
      node = null;
    }
    bySpec.set(entry, node);
  }
  return node ?? undefined;
}
