import fc from 'fast-check';
import type { Obj } from './config-arbitrary.js';

/**
 * Random edits of a config for the property tests, made the way the store makes them: a new
 * object for each changed item, the others shared. Test support only.
 */

/** The named sections edits touch: directive → [JSON section, key field]. */
export const SECTIONS: Record<string, [string, string]> = {
  stream: ['streams', 'name'],
  live: ['lives', 'prefix'],
  file: ['vods', 'prefix'],
  dvr: ['dvrs', 'name'],
  auth_backend: ['auth_backends', 'name'],
  peer: ['peers', 'name'],
  web_script: ['web_scripts', 'prefix'],
};
const KINDS = Object.keys(SECTIONS);

export interface Edit {
  op: 'delete' | 'title' | 'unknown' | 'move' | 'front' | 'add' | 'global';
  kind: number;
  index: number;
  value: string;
}
export const editArb: fc.Arbitrary<Edit[]> = fc.array(
  fc.record(
    {
      op: fc.constantFrom('delete', 'title', 'unknown', 'move', 'front', 'add', 'global'),
      kind: fc.nat(KINDS.length - 1),
      index: fc.nat(5),
      value: fc.stringMatching(/^[a-z]{1,6}$/),
    },
    { noNullPrototype: true },
  ),
  { minLength: 1, maxLength: 5 },
);

export type Touched = Map<string, Set<string> | 'all'>;

/** Applies edits to named sections (and one global); `touched` maps `kind:key` to the fields changed. */
export function applyEdits(config: Obj, edits: Edit[]): { next: Obj; touched: Touched } {
  const next: Obj = { ...config };
  const touched: Touched = new Map();
  const touch = (id: string, field: string) => {
    const set = touched.get(id);
    if (set !== 'all') touched.set(id, (set ?? new Set()).add(field));
  };
  for (const edit of edits) {
    if (edit.op === 'global') {
      next.rtmp = 1000 + edit.value.length;
      continue;
    }
    const kind = KINDS[edit.kind] as string;
    const [section, keyField] = SECTIONS[kind] as [string, string];
    const items = Object.entries((next[section] ?? {}) as Record<string, Obj>);
    const at = items.length > 0 ? edit.index % items.length : -1;
    const entry = items[at];
    if (edit.op === 'add') {
      const key = `new_${edit.value}`;
      if (items.some(([k]) => k === key)) continue;
      items.splice(Math.min(edit.index, items.length), 0, [key, { [keyField]: key }]);
      touched.set(`${kind}:${key}`, 'all');
    } else if (!entry) continue;
    else if (edit.op === 'delete') items.splice(at, 1);
    else if (edit.op === 'move') items.push(...items.splice(at, 1));
    else if (edit.op === 'front') items.unshift(...items.splice(at, 1));
    else {
      const field = edit.op === 'title' ? 'title' : 'z_edit';
      entry[1] = { ...entry[1], [field]: edit.value };
      touch(`${kind}:${entry[0]}`, field);
    }
    // As normalizeConfig does: an item keeps its object unless its position changed.
    next[section] = Object.fromEntries(
      items.map(([k, v], i) => [k, v.position === i ? v : { ...v, position: i }]),
    );
  }
  return { next, touched };
}
