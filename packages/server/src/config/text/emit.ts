import type { BlockSpec, CanonNode } from './codec/spec.js';
import { printNode } from './printer.js';
import type { Item, Layout, Run, Slot } from './slots.js';
import { hasComment } from './trivia.js';

/** Writes a changed directive (see merge.ts): blocks merged child by child, others re-printed. */
export type Rewrite = (spec: BlockSpec, slot: Slot, node: CanonNode, layout: Layout) => string;

const LF = 10;
const CR = 13;

/**
 * Writes the paired slots of a block in order: each slot's detached text, the items placed before
 * it, its own item between its comments, the items placed after it; then the items for the end.
 * A run stands for old directives kept as they were, and is copied as it is.
 */
export function emit(
  spec: BlockSpec,
  sequence: readonly (Slot | Run)[],
  end: readonly Item[],
  layout: Layout,
  rewrite: Rewrite,
): { text: string; dangling: boolean } {
  const { eol } = layout;
  // Pieces are joined once at the end, and only the last characters are kept for the layout checks:
  // asking a growing string what it ends with would copy it each time (quadratic on big files).
  const parts: string[] = [];
  let length = 0;
  let dangling = false;
  let lastGroup: string | undefined;
  const append = (text: string) => {
    parts.push(text);
    length += text.length;
  };
  /** The code of the character `back` places before the end of the output so far; -1 before its start. */
  const fromEnd = (back: number): number => {
    for (let p = parts.length - 1; p >= 0; p--) {
      const part = parts[p] as string;
      if (back < part.length) return part.charCodeAt(part.length - 1 - back);
      back -= part.length;
    }
    return -1;
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
  /** Writes a directive's own text, telling the layout where it lands. */
  const writeOwn = (item: Item, text: string) => {
    settle();
    layout.place?.(item, length, text);
    append(text);
  };
  const isEmpty = () => length === 0;
  const endsInBlankLine = () =>
    fromEnd(0) === LF && (fromEnd(1) === LF || (fromEnd(1) === CR && fromEnd(2) === LF));
  /** Detached text after a kept heading of a deleted item: no second blank line in a row. */
  const writeDetached = (text: string) =>
    write(endsInBlankLine() ? text.replace(/^(?:[ \t\r]*\n)+/, '') : text);
  const trailing = (text: string) => {
    write(text);
    // Only a directive at the very end of a file can end in a comment with no line break.
    dangling = hasComment(text) && !text.endsWith('\n');
  };
  const atLineStart = () => (isEmpty() ? layout.atLineStart : fromEnd(0) === LF);
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
      if (layout.inline) {
        write(' ');
        writeOwn(item, printNode(node, layout.indent, eol));
      } else {
        if (layout.top && spec.sections.has(node.group) && (node.body || lastGroup !== node.group))
          blankLine();
        write(atLineStart() ? '' : eol);
        write(layout.indent);
        writeOwn(item, printNode(node, layout.indent, eol));
        write(eol);
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
    write(ownLine ? layout.indent : slot.attached);
    writeOwn(item, text);
    trailing(slot.entry.trailing);
    if (ownLine && !slot.entry.trailing.endsWith('\n')) write(eol);
    lastGroup = slot.ann.group;
  };
  const emitAll = (items: readonly Item[] | undefined) => {
    if (items) for (const item of items) emitItem(item);
  };

  // The blank lines before a deleted directive go to the next directive kept, if it has none.
  let spacing = '';
  for (const slot of sequence) {
    if ('run' in slot) {
      settle();
      layout.placeRun?.(slot, length);
      append(slot.text);
      lastGroup = slot.group;
      continue;
    }
    if (slot.item) {
      writeDetached(slot.detached === '' ? spacing : slot.detached);
      spacing = '';
    } else if (hasComment(slot.detached))
      writeDetached(slot.detached); // a heading stays
    else spacing ||= slot.detached;
    emitAll(slot.before);
    if (slot.before && slot.item && layout.top && spec.sections.has(slot.ann.group)) blankLine();
    if (slot.item) emitItem(slot.item, slot);
    emitAll(slot.after);
  }
  emitAll(end);
  return { text: parts.join(''), dangling };
}
