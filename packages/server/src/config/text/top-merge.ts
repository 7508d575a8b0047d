import { align } from './align.js';
import type { Ann, BlockSpec } from './codec/spec.js';
import { type DocumentState, startsOf } from './document.js';
import { emit } from './emit.js';
import { rewrite } from './merge.js';
import { type NewGroup, newGroups } from './new-groups.js';
import { textOf } from './printer.js';
import { canonicalOf, type Item, type Layout, pushAfter, type Run, type Slot } from './slots.js';
import { splitLeading } from './trivia.js';
import { partnersByKey } from './top-partners.js';

/** Where a top-level directive's own text, or a run, landed in the merged text. */
export type Placement = { item: Item; start: number; text: string } | { run: Run; start: number };

export interface TopMerge {
  text: string;
  /** Every top-level directive of `text`, in order, alone or in runs. */
  placed: Placement[];
  /** How many directives each new group has. */
  sizes: Map<string, number>;
  /** For each old entry kept in place for its value: its new value, and its index in its group. */
  keptValues: unknown[];
  keptIndex: Int32Array;
  /** A splice: every entry is where it was, and only the directives placed alone changed. */
  inPlace?: boolean;
}

/**
 * The pairing of the whole file, as mergeBody makes it for a block, but with no work for an old
 * entry that keeps its place for its value: such an entry is only marked `plain`. Slots (with the
 * leading text split into comments and heading) are made only for the entries that need them.
 */
export class TopPlan {
  private readonly slots: (Slot | undefined)[];
  readonly plain: Uint8Array;
  private readonly partnered: Uint8Array;
  readonly keptValues: unknown[];
  readonly keptIndex: Int32Array;
  readonly end: Item[] = [];

  constructor(
    private readonly spec: BlockSpec,
    private readonly state: DocumentState,
  ) {
    const n = state.anns.length;
    this.slots = new Array<Slot | undefined>(n);
    this.plain = new Uint8Array(n);
    this.partnered = new Uint8Array(n);
    this.keptValues = new Array<unknown>(n);
    this.keptIndex = new Int32Array(n).fill(-1);
  }

  slot(i: number): Slot {
    let slot = this.slots[i];
    if (!slot) {
      const { entries } = this.state.tree;
      const entry = entries[i] as (typeof entries)[number];
      const lineStart = i === 0 || (entries[i - 1] as typeof entry).trailing.endsWith('\n');
      const { detached, attached } = splitLeading(entry.leading, lineStart);
      slot = {
        entry,
        index: i,
        ann: this.state.anns[i] as Ann,
        detached,
        attached,
        attachedAtLineStart: detached !== '' || lineStart,
        item: undefined,
        partnered: false,
        before: undefined,
        after: undefined,
      };
      this.slots[i] = slot;
    }
    return slot;
  }

  /**
   * The plan pair() makes when every old entry keeps its place for its own value (`inGroup[i]`: its
   * index in its group), before the few edited ones are set (setItem): the splice path.
   */
  keepAll(values: readonly unknown[], inGroup: Int32Array): void {
    this.plain.fill(1);
    for (let i = 0; i < values.length; i++) this.keptValues[i] = values[i];
    this.keptIndex.set(inGroup);
  }

  /** Entry i keeps its place for `value` (index j of its group), as pair() does for an unchanged one. */
  keepValue(i: number, j: number, value: unknown): void {
    this.keptValues[i] = value;
    this.keptIndex[i] = j;
  }

  /** Entry i gets `item` in its place (not plain any more), as pair() does for a changed one. */
  setItem(i: number, item: Item): void {
    this.plain[i] = 0;
    this.keptIndex[i] = -1;
    this.slot(i).item = item;
  }

  private keepInPlace(i: number, j: number, g: NewGroup): void {
    this.plain[i] = 1;
    this.keptValues[i] = g.values[j];
    this.keptIndex[i] = j;
  }

  /** A new directive with no old place: after `last` of its group, else as anchorFor in slots.ts. */
  private place(group: string, last: number | undefined, item: Item): void {
    if (last !== undefined) return pushAfter(this.slot(last), item);
    const { anns } = this.state;
    if (this.spec.sections.has(group)) return void this.end.push(item);
    for (let i = anns.length - 1; i >= 0; i--) {
      if (!this.spec.sections.has((anns[i] as Ann).group)) return pushAfter(this.slot(i), item);
    }
    if (anns.length > 0) (this.slot(0).before ??= []).push(item);
    else this.end.push(item);
  }

  pair(g: NewGroup, olds: readonly number[]): void {
    const { anns, values } = this.state;
    const entries = this.state.tree.entries;
    const same = (i: number, j: number) => (anns[i] as Ann).key === g.keys[j] && g.same(j, values[i]);
    if (olds.length === g.size && olds.every((i, j) => same(i, j))) {
      olds.forEach((i, j) => this.keepInPlace(i, j, g));
      return;
    }
    // A setting written over several lines (`http 80;` then `http 8080;`), each line read as the
    // whole value: unchanged, every line stays as written.
    if (g.size === 1 && olds.length > 1 && olds.every((i) => same(i, 0))) {
      olds.forEach((i) => this.keepInPlace(i, 0, g));
      return;
    }
    let partners: number[];
    if (g.keyed && olds.every((i) => (anns[i] as Ann).key !== undefined))
      partners = partnersByKey(g.keys, olds, anns);
    else {
      const oldTexts = olds.map((i) => {
        const c = canonicalOf(entries[i] as (typeof entries)[number], this.spec);
        return c && textOf(c);
      });
      const newTexts = g.values.map((_v, j) => textOf(g.node(j)));
      partners = align(oldTexts, newTexts).map((k) => (k === undefined ? -1 : (olds[k] as number)));
    }
    for (const p of partners) if (p >= 0) this.partnered[p] = 1;
    const taken = olds.filter((i) => this.partnered[i] === 1);
    for (let j = 0; j < g.size; j++) {
      const p = partners[j] as number;
      const at = taken[j];
      const kept = p >= 0 && g.same(j, values[p]);
      if (kept && at === p) {
        this.keepInPlace(p, j, g);
        continue;
      }
      const value = g.values[j];
      let item: Item;
      if (p < 0) item = { kind: 'fresh', node: g.node(j), index: j, value, checked: false };
      else if (kept) item = { kind: 'keep', slot: this.slot(p), index: j, value, checked: true };
      else {
        const canon = canonicalOf(entries[p] as (typeof entries)[number], this.spec);
        const node = g.node(j);
        const slot = this.slot(p);
        item =
          canon && textOf(canon) === textOf(node)
            ? { kind: 'keep', slot, index: j, value, checked: false, canon: node }
            : { kind: 'edit', slot, node, index: j, value, checked: false };
      }
      if (at !== undefined) this.slot(at).item = item;
      else this.place(g.group, taken.at(-1) ?? olds.at(-1), item);
    }
  }

  private isPlain(i: number): boolean {
    const slot = this.slots[i];
    return this.plain[i] === 1 && !slot?.before && !slot?.after;
  }

  private alone(i: number): Slot {
    const slot = this.slot(i);
    if (this.plain[i] === 1) {
      const index = this.keptIndex[i] as number;
      slot.item = { kind: 'keep', slot, index, value: this.keptValues[i], checked: true };
    }
    return slot;
  }

  /**
   * The slots to write, with each stretch of plain entries as a run. The first entry of a stretch
   * that follows a changed one is written alone: what comes before it may change its leading text
   * (a deleted neighbour's blank line). A run ends with a line break: what follows it then
   * cannot change how its last directive's line ends (at the end of the file, a new item may).
   */
  sequence(changed?: readonly number[]): (Slot | Run)[] {
    const { entries } = this.state.tree;
    const text = this.state.text;
    const starts = startsOf(this.state);
    const n = entries.length;
    const out: (Slot | Run)[] = [];
    /** Plain entries i…j-1: the first alone (after a changed one), then a run, then the rest alone. */
    const stretch = (i: number, j: number) => {
      let from = i;
      if (i > 0) out.push(this.alone(from++));
      let last = -1;
      for (let k = j - 1; k >= from; k--)
        if ((entries[k] as (typeof entries)[number]).trailing.endsWith('\n')) {
          last = k;
          break;
        }
      if (last >= from) {
        out.push({
          run: true,
          first: from,
          last,
          text: text.slice(starts[from], starts[last + 1]),
          group: (this.state.anns[last] as Ann).group,
        });
        from = last + 1;
      }
      for (let k = from; k < j; k++) out.push(this.alone(k));
    };
    if (changed) {
      // A splice: only `changed` (ascending) is not plain; the stretches between them are not walked.
      let i = 0;
      for (const c of changed) {
        if (c > i) stretch(i, c);
        out.push(this.alone(c));
        i = c + 1;
      }
      if (i < n) stretch(i, n);
      return out;
    }
    let i = 0;
    while (i < n) {
      if (!this.isPlain(i)) {
        out.push(this.alone(i++));
        continue;
      }
      let j = i;
      while (j < n && this.isPlain(j)) j++;
      stretch(i, j);
      i = j;
    }
    return out;
  }
}

/**
 * Writes the whole file over the previous document, as mergeBody does for the top level, at a
 * cost that follows the size of the change. Undefined when the config cannot take this path.
 */
export function mergeTop(
  spec: BlockSpec,
  state: DocumentState,
  config: Record<string, unknown>,
): TopMerge | undefined {
  const groups = newGroups(spec, config);
  if (!groups) return undefined;
  const plan = new TopPlan(spec, state);
  const olds = new Map<string, number[]>();
  state.anns.forEach((ann, i) => {
    const list = olds.get(ann.group);
    if (list) list.push(i);
    else olds.set(ann.group, [i]);
  });
  for (const g of groups) plan.pair(g, olds.get(g.group) ?? []);
  return finishTop(spec, state, plan, new Map(groups.map((g) => [g.group, g.size])));
}

/** Writes a paired plan: the text, and where each directive landed in it (for the next document). */
export function finishTop(
  spec: BlockSpec,
  state: DocumentState,
  plan: TopPlan,
  sizes: Map<string, number>,
  changed?: readonly number[],
): TopMerge {
  const { tree } = state;
  const placed: Placement[] = [];
  const layout: Layout = {
    indent: '',
    inline: false,
    atLineStart: true,
    eol: tree.eol,
    top: true,
    place: (item, start, text) => placed.push({ item, start, text }),
    placeRun: (run, start) => placed.push({ run, start }),
  };
  const body = emit(spec, plan.sequence(changed), plan.end, layout, rewrite);

  // In a file of comments only, the comments are a heading: new directives go below them.
  let text: string;
  if (tree.entries.length === 0 && tree.closing.trim() !== '') {
    const head = tree.closing + (/\n\s*$/.test(tree.closing) ? '' : tree.eol);
    for (const p of placed) p.start += head.length;
    text = head + body.text;
  } else text = body.text + (body.dangling && tree.closing ? tree.eol : '') + tree.closing;
  const merge = { text, placed, sizes, keptValues: plan.keptValues, keptIndex: plan.keptIndex };
  return changed ? { ...merge, inPlace: true } : merge;
}
