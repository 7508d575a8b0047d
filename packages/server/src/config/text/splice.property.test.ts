import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ConfigDocument, treeOf } from './document.js';
import { parseConfigText, revisionOf, serializeConfig, serializeConfigWithDocument } from './index.js';
import { configArb, type Obj } from './testing/config-arbitrary.js';
import { SECTIONS } from './testing/edits.js';
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

const KINDS = Object.keys(SECTIONS);

/** A field edit of an existing item, as the store's in-place edits make them (config/in-place.ts). */
const fieldEditArb = fc.record(
  {
    kind: fc.nat(KINDS.length - 1),
    index: fc.nat(5),
    field: fc.constantFrom('title', 'z_edit', 'comment', 'same'),
    value: fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.integer(),
      fc.boolean(),
      fc.constantFrom('a b', '#c', '"q"'),
    ),
  },
  { noNullPrototype: true },
);

/** Applies field edits: the edited items are new objects in the same sections, nothing else changes. */
function applyFieldEdits(config: Obj, edits: fc.RecordValue<typeof fieldEditArb>[]) {
  const changes = new Map<string, string[]>();
  for (const edit of edits) {
    const [section] = SECTIONS[KINDS[edit.kind] as string] as [string, string];
    const items = config[section] as Record<string, Obj> | undefined;
    const keys = Object.keys(items ?? {});
    const key = keys[edit.index % Math.max(keys.length, 1)];
    if (!items || key === undefined) continue;
    // 'same': a copy of the item as it was (the fast path must keep its text).
    items[key] = edit.field === 'same' ? { ...items[key] } : { ...items[key], [edit.field]: edit.value };
    const names = changes.get(section) ?? [];
    changes.set(section, names.includes(key) ? names : [...names, key]);
  }
  return changes;
}

describe('the splice of edited items', () => {
  // The whole merge is itself checked against merging over the whole document (incremental.property.test.ts).
  it('writes byte for byte what the whole merge writes, edit after edit', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.array(fc.nat(), { minLength: 1, maxLength: 64 }),
        fc.array(fieldEditArb, { minLength: 1, maxLength: 4 }),
        fc.array(fieldEditArb, { minLength: 1, maxLength: 4 }),
        (config, tape, edits, more) => {
          // Hand-written layouts, with directives sharing lines, comments and blank lines.
          let { document } = parseConfigText(relayout(serializeConfig(config), tape, true));
          const current = structuredClone(config);
          for (const batch of [edits, more]) {
            // Each section a new object holding the same items, as applyDelta makes it.
            for (const [section] of Object.values(SECTIONS))
              if (current[section]) current[section] = { ...(current[section] as Obj) };
            const changes = applyFieldEdits(current, batch);
            revisionOf(document); // its page hashes are what the next revision reuses
            const slow = serializeConfigWithDocument(current, document);
            const fast = serializeConfigWithDocument(current, document, changes);
            expect(fast.text).toBe(slow.text);
            expect(spans(fast.document)).toEqual(spans(parseConfigText(fast.text).document));
            // The revision names the text: the same whichever way its document was made.
            expect(revisionOf(fast.document)).toBe(revisionOf(parseConfigText(fast.text).document));
            ({ document } = fast);
          }
        },
      ),
      { numRuns: 100 },
    );
    // Minutes only on a machine shared by many (seconds alone); the cases are what is checked.
  }, 120_000);
});
