import { decodeBlock, encodeBlock } from './codec/block.js';
import type { Ann, BlockSpec, CanonNode } from './codec/spec.js';
import { align } from './align.js';
import { headText, printNode, STEP, textOf } from './printer.js';
import { hasComment, indentOf, splitLeading } from './trivia.js';
import type { Entry } from './tree.js';

/** How new directives are laid out in a block (or the file) being merged. */
export interface Layout {
  indent: string;
  /** The block holds its children on one line, `{ a; b; }`: new ones join that line. */
  inline: boolean;
  atLineStart: boolean;
  eol: string;
  top: boolean;
}

type Item =
  | { kind: 'keep'; slot: Slot }
  | { kind: 'edit'; slot: Slot; node: CanonNode }
  | { kind: 'fresh'; node: CanonNode };

interface Slot {
  entry: Entry;
  ann: Ann;
  detached: string;
  attached: string;
  attachedAtLineStart: boolean;
  item?: Item;
  before: Item[];
  after: Item[];
}

const canonCache = new WeakMap<BlockSpec, WeakMap<Entry, CanonNode | null>>();

/** The canonical form of one old directive, read on its own in its block; undefined when it is not one node. */
function canonicalOf(entry: Entry, spec: BlockSpec): CanonNode | undefined {
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

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const list = out.get(key(item));
    if (list) list.push(item);
    else out.set(key(item), [item]);
  }
  return out;
}

function sameTexts(a: readonly CanonNode[], b: readonly CanonNode[]): boolean {
  return a.length === b.length && a.every((node, i) => textOf(node) === textOf(b[i] as CanonNode));
}

/**
 * Writes the new value of a block (or of the whole file) over its old text. Each group of
 * directives (one JSON field) whose canonical form did not change is written back as it was.
 * In a changed group, new directives are paired with old ones (by key for named items, else by
 * content then order); a pair with equal content keeps the old text, a changed pair is re-printed
 * between the old one's comments, blocks are merged child by child. New directives take the places
 * of the old ones of their group, in the new order; the rest go after the last one of the group.
 */
export function mergeBody(
  spec: BlockSpec,
  entries: readonly Entry[],
  value: Record<string, unknown>,
  layout: Layout,
): { text: string; dangling: boolean } {
  const old = decodeBlock(spec, entries);
  const oldCanon = encodeBlock(spec, old.value);
  const next = encodeBlock(spec, value);

  let lineStart = layout.atLineStart;
  const slots: Slot[] = entries.map((entry, i) => {
    const { detached, attached } = splitLeading(entry.leading, lineStart);
    const slot = {
      entry,
      ann: old.anns[i] as Ann,
      detached,
      attached,
      attachedAtLineStart: detached !== '' || lineStart,
      before: [],
      after: [],
    };
    lineStart = entry.trailing.endsWith('\n');
    return slot;
  });

  const end: Item[] = [];
  const isSection = (group: string) => layout.top && spec.sections.has(group);
  const anchorFor = (group: string, last: Slot | undefined): Item[] => {
    if (last) return last.after;
    if (!layout.top || isSection(group)) return end;
    // A new global goes after the other globals, or first in the file.
    const lastGlobal = slots.findLast((s) => !isSection(s.ann.group));
    return lastGlobal?.after ?? slots[0]?.before ?? end;
  };

  const newByGroup = groupBy(next, (n) => n.group);
  const oldByGroup = groupBy(oldCanon, (n) => n.group);
  const slotsByGroup = groupBy(slots, (s) => s.ann.group);
  for (const group of new Set([...newByGroup.keys(), ...slotsByGroup.keys()])) {
    const olds = slotsByGroup.get(group) ?? [];
    const news = newByGroup.get(group) ?? [];
    const oldGroup = oldByGroup.get(group) ?? [];
    if (sameTexts(oldGroup, news)) {
      for (const slot of olds) slot.item = { kind: 'keep', slot };
      continue;
    }
    const keyed = olds.every((s) => s.ann.key !== undefined) && news.every((n) => n.key !== undefined);
    let partners: (Slot | undefined)[];
    let oldFormOf: (slot: Slot) => CanonNode | undefined = (slot) => canonicalOf(slot.entry, spec);
    if (keyed) {
      const byKey = new Map(olds.map((s) => [s.ann.key, s]));
      partners = news.map((n) => byKey.get(n.key));
      // A named item reads the same alone as in its block: its old form is the block's node of that key.
      const oldByKey = new Map(oldGroup.map((n) => [n.key, n]));
      oldFormOf = (slot) => oldByKey.get(slot.ann.key);
    } else {
      const oldTexts = olds.map((s) => {
        const c = canonicalOf(s.entry, spec);
        return c && textOf(c);
      });
      partners = align(oldTexts, news.map(textOf)).map((k) => (k === undefined ? undefined : olds[k]));
    }
    const partnered = new Set(partners);
    const taken = olds.filter((s) => partnered.has(s));
    news.forEach((node, j) => {
      const slot = partners[j];
      const canon = slot && oldFormOf(slot);
      const item: Item = !slot
        ? { kind: 'fresh', node }
        : canon && textOf(canon) === textOf(node)
          ? { kind: 'keep', slot }
          : { kind: 'edit', slot, node };
      const place = taken[j];
      if (place) place.item = item;
      else anchorFor(group, taken[taken.length - 1] ?? olds[olds.length - 1]).push(item);
    });
  }
  return emit(spec, slots, end, layout);
}

function emit(
  spec: BlockSpec,
  slots: readonly Slot[],
  end: readonly Item[],
  layout: Layout,
): { text: string; dangling: boolean } {
  const { eol } = layout;
  // Pieces are joined once at the end, and only the last characters are kept for the layout checks:
  // asking a growing string what it ends with would copy it each time (quadratic on big files).
  const parts: string[] = [];
  let tail = '';
  let dangling = false;
  let lastGroup: string | undefined;
  const append = (text: string) => {
    parts.push(text);
    tail = (tail + text).slice(-4);
  };
  const settle = () => {
    if (dangling) append(eol);
    dangling = false;
  };
  const write = (text: string) => {
    if (!text) return;
    settle();
    append(text);
  };
  const isEmpty = () => tail === '';
  const endsInBlankLine = () => tail.endsWith('\n\n') || tail.endsWith('\n\r\n');
  /** Detached text after a kept heading of a deleted item: no second blank line in a row. */
  const writeDetached = (text: string) =>
    write(endsInBlankLine() ? text.replace(/^(?:[ \t\r]*\n)+/, '') : text);
  const trailing = (text: string) => {
    write(text);
    // Only a directive at the very end of a file can end in a comment with no line break.
    dangling = hasComment(text) && !text.endsWith('\n');
  };
  const atLineStart = () => (isEmpty() ? layout.atLineStart : tail.endsWith('\n'));
  const blankLine = () => {
    settle();
    if (isEmpty() || endsInBlankLine()) return;
    write(atLineStart() ? eol : eol + eol);
  };

  /** `host` is the slot the item is written in; an item from another slot has moved. */
  const emitItem = (item: Item, host?: Slot) => {
    if (item.kind === 'fresh') {
      const { node } = item;
      settle();
      if (layout.inline) write(` ${printNode(node, layout.indent, eol)}`);
      else {
        if (layout.top && spec.sections.has(node.group) && (node.body || lastGroup !== node.group))
          blankLine();
        write(`${atLineStart() ? '' : eol}${layout.indent}${printNode(node, layout.indent, eol)}${eol}`);
      }
      lastGroup = node.group;
      return;
    }
    const { slot } = item;
    const text = item.kind === 'keep' ? slot.entry.raw : rewrite(spec, slot, item.node, layout);
    // A moved directive that shared a line with its old neighbours gets a line of its own.
    const moved = slot !== host && !layout.inline;
    const ownLine = moved && !slot.attached.includes('\n');
    settle();
    if (moved && !atLineStart()) write(eol);
    write(ownLine ? layout.indent + text : slot.attached + text);
    trailing(slot.entry.trailing);
    if (ownLine && !slot.entry.trailing.endsWith('\n')) write(eol);
    lastGroup = slot.ann.group;
  };
  const emitAll = (items: readonly Item[]) => items.forEach((item) => emitItem(item));

  // The blank lines before a deleted directive go to the next directive kept, if it has none.
  let spacing = '';
  for (const slot of slots) {
    if (slot.item) {
      writeDetached(slot.detached === '' ? spacing : slot.detached);
      spacing = '';
    } else if (hasComment(slot.detached))
      writeDetached(slot.detached); // a heading stays
    else spacing ||= slot.detached;
    emitAll(slot.before);
    if (slot.before.length > 0 && slot.item && layout.top && spec.sections.has(slot.ann.group)) blankLine();
    if (slot.item) emitItem(slot.item, slot);
    emitAll(slot.after);
  }
  emitAll(end);
  return { text: parts.join(''), dangling };
}

/** A changed directive: blocks are merged child by child, other directives re-printed. */
function rewrite(spec: BlockSpec, slot: Slot, node: CanonNode, layout: Layout): string {
  const { entry } = slot;
  const indent = indentOf(slot.attached, slot.attachedAtLineStart) ?? layout.indent;
  const children = entry.directive.children;
  if (!children || !entry.block || !node.body) return printNode(node, indent, layout.eol);
  const { block } = entry;
  const old = canonicalOf(entry, spec);
  const header = old && headText(old) === headText(node) ? block.header : `${headText(node)} {`;
  const inner = entry.raw.slice(block.header.length);
  let childIndent: string | undefined;
  let lineStart = block.headerTrailing.endsWith('\n');
  for (const child of children) {
    childIndent ??= indentOf(child.leading, lineStart);
    lineStart = child.trailing.endsWith('\n');
  }
  const childLayout: Layout = {
    indent: childIndent ?? indent + STEP,
    inline: !inner.includes('\n') && children.length > 0,
    atLineStart: block.headerTrailing.endsWith('\n'),
    eol: layout.eol,
    top: false,
  };
  const body = mergeBody(node.body.spec, children, node.body.value, childLayout);
  let close = block.closeLeading;
  // New lines were added to a block that closed on the same line: put `}` back under its directive.
  if (body.text.endsWith('\n') && !close.includes('\n')) close = indent;
  return `${header}${block.headerTrailing}${body.text}${body.dangling ? layout.eol : ''}${close}}`;
}
