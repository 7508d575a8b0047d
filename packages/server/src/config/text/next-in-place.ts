import type { Ann, BlockSpec } from './codec/spec.js';
import { type DocumentState, startsOf } from './document.js';
import { detach, readPlaced } from './next-document.js';
import type { TopMerge } from './top-merge.js';
import type { Entry } from './tree.js';

/**
 * nextDocumentState for a splice (merge.inPlace): every entry is where it was, so the next
 * document's arrays are the previous ones copied whole (a copy of 20,000 references costs
 * microseconds; pushing them one by one with the order checks cost ~2–4 ms an edit) and patched
 * at the directives written alone, each read back and checked as nextDocumentState does. Runs
 * only move their starts. Undefined when any check fails: the caller then takes the whole merge.
 */
export function nextInPlace(
  spec: BlockSpec,
  merge: TopMerge,
  previous: DocumentState,
): DocumentState | undefined {
  const { text, placed } = merge;
  const oldStarts = startsOf(previous);
  const n = previous.anns.length;
  const entries: Entry[] = previous.tree.entries.slice();
  const anns: Ann[] = previous.anns.slice();
  // The plan's values: what each kept entry now stands for; the ones written alone are set below.
  const values = merge.keptValues;
  const starts = new Int32Array(n + 1);
  // Runs are old text: with no CRLF in the old text, only what was written alone may hold one.
  let crlf = previous.tree.eol === '\r\n' && text.includes('\r\n');
  let cursor = 0;
  let at = 0;
  for (const p of placed) {
    if ('run' in p) {
      const { first, last } = p.run;
      if (p.start !== cursor || first !== at) return undefined;
      const shift = p.start - (oldStarts[first] as number);
      for (let k = first; k <= last; k++) starts[k] = (oldStarts[k] as number) + shift;
      cursor = p.start + p.run.text.length;
      at = last + 1;
      continue;
    }
    const { item } = p;
    if (item.kind === 'fresh' || item.slot.index !== at) return undefined;
    const alone = readPlaced(spec, text, cursor, p);
    // Same group and key at the same index (readPlaced checks the key): every group keeps its order.
    if (!alone || alone.ann.group !== (anns[at] as Ann).group) return undefined;
    crlf ||= text.slice(Math.max(0, cursor - 1), alone.end + 1).includes('\r\n');
    starts[at] = cursor;
    entries[at] = alone.entry;
    anns[at] = alone.ann;
    values[at] = item.value;
    cursor = alone.end;
    at++;
  }
  if (at !== n || values.length !== n) return undefined;
  starts[n] = cursor;
  crlf ||= text.slice(Math.max(0, cursor - 1)).includes('\r\n');
  const closing = detach(text.slice(cursor));
  const tree = { entries, closing, eol: crlf ? '\r\n' : '\n' } as const;
  return { tree, anns, values, text, starts };
}
