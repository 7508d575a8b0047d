import { deepEqual } from '@sluice/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBlock } from './codec/block.js';
import { topSpec } from './codec/specs.js';
import { treeOf } from './document.js';
import { parseConfigText, serializeConfig } from './index.js';
import { configArb, type Obj } from './testing/config-arbitrary.js';
import type { Entry } from './tree.js';

/** Puts an own-line comment before every line and a trailing comment after it. */
function commented(text: string): string {
  let n = 0;
  // Split on \n only: the printer escapes \n in strings, but U+2028 and the like stay inside them.
  const lines = text.split('\n').map((line) => {
    const indent = /^ */.exec(line)?.[0] ?? '';
    return line === '' ? line : `${indent}# c${n++}\n${line} # t${n++}`;
  });
  return lines.join('\n');
}

type Edit =
  | { op: 'delete' | 'title' | 'unknown' | 'move'; index: number; value: string }
  | { op: 'add'; index: number; value: string }
  | { op: 'global'; index: number; value: string };
const editArb: fc.Arbitrary<Edit[]> = fc.array(
  fc.record(
    {
      op: fc.constantFrom('delete', 'title', 'unknown', 'move', 'add', 'global'),
      index: fc.nat(5),
      value: fc.stringMatching(/^[a-z]{1,6}$/),
    },
    { noNullPrototype: true },
  ) as fc.Arbitrary<Edit>,
  { minLength: 1, maxLength: 4 },
);

/** Applies edits to the streams (and one global), returning the new config and the keys whose items changed. */
function applyEdits(config: Obj, edits: Edit[]): { next: Obj; touched: Map<string, Set<string> | 'all'> } {
  const streams = Object.entries((config.streams ?? {}) as Record<string, Obj>);
  const touched = new Map<string, Set<string> | 'all'>();
  const touch = (key: string, field: string) => {
    const set = touched.get(key);
    if (set !== 'all') touched.set(key, (set ?? new Set()).add(field));
  };
  const next: Obj = { ...config };
  for (const edit of edits) {
    const at = streams.length > 0 ? edit.index % streams.length : -1;
    const entry = streams[at];
    if (edit.op === 'global') next.rtmp = 1000 + edit.value.length;
    else if (edit.op === 'add') {
      const key = `new_${edit.value}`;
      if (streams.some(([k]) => k === key)) continue;
      streams.splice(Math.min(edit.index, streams.length), 0, [
        key,
        { name: key, urls: [{ url: `udp://${edit.value}` }] },
      ]);
      touched.set(key, 'all');
    } else if (!entry) continue;
    else if (edit.op === 'delete') streams.splice(at, 1);
    else if (edit.op === 'move') streams.push(...streams.splice(at, 1));
    else if (edit.op === 'title') {
      entry[1] = { ...entry[1], title: edit.value };
      touch(entry[0], 'title');
    } else {
      entry[1] = { ...entry[1], z_edit: edit.value };
      touch(entry[0], 'z_edit');
    }
  }
  next.streams = Object.fromEntries(streams.map(([k, v], i) => [k, { ...v, position: i }]));
  return { next, touched };
}

const verbatim = (e: Entry) => e.leading.slice(e.leading.lastIndexOf('\n\n') + 2) + e.raw + e.trailing;

describe('random edits over a commented file', () => {
  it('keep every comment and the exact text of every unchanged directive', () => {
    fc.assert(
      fc.property(configArb, editArb, (config, edits) => {
        const { document } = parseConfigText(commented(serializeConfig(config)));
        const { next, touched } = applyEdits(config, edits);
        const out = serializeConfig(next, document);
        expect(parseConfigText(out).config).toEqual(next);

        const entries = treeOf(document).entries;
        const anns = decodeBlock(topSpec(), entries).anns;
        const nextStreams = next.streams as Record<string, Obj>;
        entries.forEach((entry, i) => {
          const { group: g, key } = anns[i] ?? { group: '' };
          const group = g.replace(/^generic:/, '');
          if (group === 'stream' && key !== undefined) {
            const change = touched.get(key);
            if (!nextStreams[key]) return; // deleted: its comments go with it
            if (!change) expect(out).toContain(verbatim(entry));
            else if (change !== 'all') {
              // A changed stream keeps its own comments and its other lines as they were.
              expect(out).toContain(
                entry.leading.slice(entry.leading.lastIndexOf('\n\n') + 2) + entry.block?.header,
              );
              for (const child of entry.directive.children ?? [])
                if (!change.has(child.directive.name)) expect(out).toContain(verbatim(child));
            }
          } else if (
            (!Object.hasOwn(config, group) && !Object.hasOwn(next, group)) ||
            deepEqual(config[group], next[group])
          ) {
            expect(out).toContain(verbatim(entry));
          }
        });
      }),
      { numRuns: 200 },
    );
  });
});
