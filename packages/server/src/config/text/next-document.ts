import { decodeBlock } from './codec/block.js';
import type { Ann, BlockSpec, CanonNode } from './codec/spec.js';
import { type DocumentState, startsOf } from './document.js';
import { parseTree, trailingAt } from './parser.js';
import { printNode } from './printer.js';
import type { Item } from './slots.js';
import { sameItem } from './new-groups.js';
import type { TopMerge } from './top-merge.js';
import type { Entry } from './tree.js';

/**
 * One directive read alone, at the column it has in the file (the parser's continuation rule
 * depends on it). Undefined unless the text is exactly one directive that reads without error.
 */
function readAlone(spec: BlockSpec, text: string, column: number): { entry: Entry; ann: Ann } | undefined {
  try {
    const tree = parseTree(' '.repeat(column - 1) + text);
    const entry = tree.entries[0];
    if (tree.entries.length !== 1 || !entry || entry.raw !== text || tree.closing !== '') return undefined;
    const ann = decodeBlock(spec, [entry]).anns[0];
    return ann && { entry, ann };
  } catch {
    return undefined;
  }
}

/**
 * A copy of a piece of a merged text. V8 keeps a slice of a long string as a view of it, and
 * entries live on from one document to the next: a view (a heading that a deletion joined to the
 * next item's comments, say) would keep that whole version of the file alive with it.
 */
export function detach(piece: string): string {
  return ` ${piece}`.slice(1);
}

function groupOf(item: Item): string {
  return item.kind === 'fresh' ? item.node.group : item.slot.ann.group;
}

/**
 * Whether a directive read alone means the item's value: the same value, or, for a value not in
 * normal form (an item with `stats`, say), what the value's canonical text reads as. This is the
 * check serializeConfig once made by reading the whole file back, made for one directive.
 */
function means(spec: BlockSpec, read: Ann, item: Item, canon: CanonNode | undefined): boolean {
  const key = item.kind === 'keep' ? item.slot.ann.key : item.node.key;
  if (read.group !== groupOf(item) || read.key !== key) return false;
  const section = spec.byDirective.get(read.group)?.section;
  if (sameItem(read.value, item.value, section)) return true;
  const normal = canon && readAlone(spec, printNode(canon, '', '\n'), 1);
  return normal !== undefined && sameItem(read.value, normal.ann.value, section);
}

/**
 * A directive written alone, whose leading text starts at `cursor`: its entry (the old one where
 * its text is as it was) and annotation, and where its trailing text ends. Undefined when it does
 * not read alone as what it was written for.
 */
export function readPlaced(
  spec: BlockSpec,
  text: string,
  cursor: number,
  p: { item: Item; start: number; text: string },
): { entry: Entry; ann: Ann; end: number } | undefined {
  const { item, start, text: raw } = p;
  const old = item.kind === 'fresh' ? undefined : item.slot.entry;
  const rawEnd = start + raw.length;
  // The parser's leading and trailing texts, taken from the old entry when they did not change.
  const leading =
    old && start - cursor === old.leading.length && text.startsWith(old.leading, cursor)
      ? old.leading
      : detach(text.slice(cursor, start));
  const trailing =
    old && old.trailing.endsWith('\n') && text.startsWith(old.trailing, rawEnd)
      ? old.trailing
      : detach(trailingAt(text, rawEnd));
  const end = rawEnd + trailing.length;
  const column = start - text.lastIndexOf('\n', start - 1);
  const sameColumn = old !== undefined && (old.directive.pos.column === column || !raw.includes('\n'));
  if (item.kind === 'keep' && item.checked && sameColumn) {
    const entry = leading === old.leading && trailing === old.trailing ? old : { ...old, leading, trailing };
    return { entry, ann: item.slot.ann, end };
  }
  const read = readAlone(spec, raw, column);
  if (!read) return undefined;
  const canon = item.kind === 'keep' ? item.canon : item.node;
  if (!item.checked && !means(spec, read.ann, item, canon)) return undefined;
  return { entry: { ...read.entry, leading, trailing }, ann: read.ann, end };
}

/**
 * The document of a merged text, without parsing the text again: the directives kept for their
 * value are the old entries (with the text around them as it now is); each other directive is
 * read alone, and must mean its value. Then the order of each group is checked, which fixes every
 * `position`. Undefined when any check fails: the caller then reads the whole text instead.
 */
export function nextDocumentState(
  spec: BlockSpec,
  merge: TopMerge,
  previous: DocumentState,
): DocumentState | undefined {
  const { text, placed } = merge;
  const oldStarts = startsOf(previous);
  const entries: Entry[] = [];
  const anns: Ann[] = [];
  const values: unknown[] = [];
  const starts: number[] = [];
  const counts = new Map<string, number>();
  /** Checks that directive `index` of `group` comes next, and counts it. */
  const inOrder = (group: string, index: number | undefined) => {
    const count = counts.get(group) ?? 0;
    counts.set(group, count + 1);
    return index === count;
  };
  let cursor = 0;
  for (const p of placed) {
    if ('run' in p) {
      // A run is the old text of its entries as it was: it starts where the text before it ends.
      const { first, last } = p.run;
      if (p.start !== cursor) return undefined;
      const shift = p.start - (oldStarts[first] as number);
      // A run is most of a big file (20,000 streams in one group): the group's count is kept in a
      // local while the group stays the same, not looked up in the map for each entry.
      let group: string | undefined;
      let count = 0;
      for (let k = first; k <= last; k++) {
        const ann = previous.anns[k] as Ann;
        if (ann.group !== group) {
          if (group !== undefined) counts.set(group, count);
          group = ann.group;
          count = counts.get(group) ?? 0;
        }
        if (merge.keptIndex[k] !== count++) return undefined;
        entries.push(previous.tree.entries[k] as Entry);
        anns.push(ann);
        values.push(merge.keptValues[k]);
        starts.push((oldStarts[k] as number) + shift);
      }
      if (group !== undefined) counts.set(group, count);
      cursor = p.start + p.run.text.length;
      continue;
    }
    const { item } = p;
    if (!inOrder(groupOf(item), item.index)) return undefined;
    const alone = readPlaced(spec, text, cursor, p);
    if (!alone) return undefined;
    starts.push(cursor);
    cursor = alone.end;
    const { entry, ann } = alone;
    entries.push(entry);
    anns.push(ann);
    values.push(item.value);
  }
  for (const [group, size] of merge.sizes) if ((counts.get(group) ?? 0) !== size) return undefined;
  starts.push(cursor);
  const closing = detach(text.slice(cursor));
  const tree = { entries, closing, eol: text.includes('\r\n') ? '\r\n' : '\n' } as const;
  return { tree, anns, values, text, starts };
}
