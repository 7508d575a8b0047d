import { decodeBlock, encodeBlock } from './codec/block.js';
import type { BlockSpec, CanonNode } from './codec/spec.js';
import { align } from './align.js';
import { emit } from './emit.js';
import { headText, printNode, STEP, textOf } from './printer.js';
import { anchorFor, canonicalOf, groupBy, type Item, type Layout, makeSlots, type Slot } from './slots.js';
import { indentOf } from './trivia.js';
import type { Entry } from './tree.js';

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

  const slots = makeSlots(entries, old.anns, layout.atLineStart);
  const end: Item[] = [];
  const place = anchorFor(spec, slots, layout, end);

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
      const at = taken[j];
      if (at) at.item = item;
      else place(group, taken[taken.length - 1] ?? olds[olds.length - 1], item);
    });
  }
  return emit(spec, slots, end, layout, rewrite);
}

/** A changed directive: blocks are merged child by child, other directives re-printed. */
export function rewrite(spec: BlockSpec, slot: Slot, node: CanonNode, layout: Layout): string {
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
