import { deepEqual } from '@sluice/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBlock } from './codec/block.js';
import { topSpec } from './codec/specs.js';
import { type ConfigDocument, treeOf } from './document.js';
import { parseConfigText, serializeConfig, serializeConfigWithDocument } from './index.js';
import { configArb, type Obj } from './testing/config-arbitrary.js';
import { applyEdits, editArb, SECTIONS } from './testing/edits.js';
import type { Entry } from './tree.js';
import { splitLeading } from './trivia.js';

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

/** The text a directive owns: the comment lines right above it, itself, and its line's end. */
function owned(entry: Entry, atLineStart = true): string {
  return splitLeading(entry.leading, atLineStart).attached + entry.raw + entry.trailing;
}

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
        entries.forEach((entry, i) => {
          const { group, key } = anns[i] ?? { group: '' };
          const section = SECTIONS[group];
          if (section && key !== undefined) {
            if (!Object.hasOwn((next[section[0]] ?? {}) as Obj, key)) return; // deleted, with its comments
            const change = touched.get(`${group}:${key}`);
            if (!change) expect(out).toContain(owned(entry));
            else if (change !== 'all') {
              // A changed item keeps its own comments, its header and its other lines as they were.
              const { attached } = splitLeading(entry.leading, true);
              expect(out).toContain(attached + (entry.block?.header ?? ''));
              for (const child of entry.directive.children ?? []) {
                if (!change.has(child.directive.name)) expect(out).toContain(owned(child));
              }
            }
            return;
          }
          const field = group.replace(/^generic:/, '');
          const same =
            (!Object.hasOwn(config, field) && !Object.hasOwn(next, field)) ||
            deepEqual(config[field], next[field]);
          if (same) expect(out).toContain(owned(entry));
        });
      }),
      { numRuns: 200 },
    );
  });
});

/** A document's entries, span by span, as the text's own parse would give them. */
function spans(document: ConfigDocument) {
  const tree = treeOf(document);
  return {
    entries: tree.entries.map((e) => [e.leading, e.raw, e.trailing]),
    closing: tree.closing,
    eol: tree.eol,
  };
}

describe('the document returned with the text', () => {
  it('is the document of that text, and the next edit over it writes the same text', () => {
    fc.assert(
      fc.property(configArb, editArb, editArb, (config, edits, more) => {
        const { document } = parseConfigText(commented(serializeConfig(config)));
        const { next } = applyEdits(config, edits);
        const first = serializeConfigWithDocument(next, document);
        const reparsed = parseConfigText(first.text);
        expect(spans(first.document)).toEqual(spans(reparsed.document));
        const again = applyEdits(next, more).next;
        expect(serializeConfigWithDocument(again, first.document).text).toBe(
          serializeConfig(again, reparsed.document),
        );
      }),
      { numRuns: 200 },
    );
  });
});
