import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ConfigDocument, treeOf } from './document.js';
import { parseConfigText, serializeConfig, serializeConfigWithDocument } from './index.js';
import { mergeWhole } from './serializer.js';
import { configArb } from './testing/config-arbitrary.js';
import { applyEdits, editArb } from './testing/edits.js';
import { relayout } from './testing/relayout.js';

/** A document's entries, span by span, as the text's own parse would give them. */
function spans(document: ConfigDocument) {
  const tree = treeOf(document);
  return {
    entries: tree.entries.map((e) => [e.leading, e.raw, e.trailing]),
    closing: tree.closing,
    eol: tree.eol,
  };
}

describe('the incremental merge', () => {
  it('writes what merging over the whole document writes, edit after edit', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.array(fc.nat(), { minLength: 1, maxLength: 64 }),
        editArb,
        editArb,
        (config, tape, edits, more) => {
          // Hand-written layouts, with directives sharing lines, comments and blank lines.
          let { document } = parseConfigText(relayout(serializeConfig(config), tape, true));
          let current = config;
          for (const batch of [edits, more]) {
            const next = applyEdits(current, batch).next;
            const out = serializeConfigWithDocument(next, document);
            expect(out.text).toBe(mergeWhole(next, treeOf(document)).text);
            expect(spans(out.document)).toEqual(spans(parseConfigText(out.text).document));
            ({ document } = out);
            current = next;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
