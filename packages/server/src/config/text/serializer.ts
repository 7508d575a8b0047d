import { deepEqual } from '@sluice/api';
import { printCanonical } from './canonical.js';
import { decodeBlock } from './codec/block.js';
import { topSpec } from './codec/specs.js';
import { type ConfigDocument, type DocumentState, makeDocument, stateOf } from './document.js';
import { mergeBody } from './merge.js';
import { nextDocumentState } from './next-document.js';
import { nextInPlace } from './next-in-place.js';
import { parseTree } from './parser.js';
import { handOnIndex, type ItemChanges, spliceTop } from './splice.js';
import { mergeTop } from './top-merge.js';
import { handOnPages } from './revision.js';
import type { ConfigTree } from './tree.js';

function read(text: string): { config: Record<string, unknown>; state: DocumentState } {
  const tree = parseTree(text);
  const { value, anns } = decodeBlock(topSpec(), tree.entries);
  return { config: value, state: { tree, anns, values: anns.map((a) => a.value), text } };
}

/** Reads a config text into its JSON config (not validated: the store checks it against the schema). */
export function parseConfigText(text: string): { config: Record<string, unknown>; document: ConfigDocument } {
  const { config, state } = read(text);
  return { config, document: makeDocument(state) };
}

function render(tree: ConfigTree, config: Record<string, unknown>): string {
  const layout = { indent: '', inline: false, atLineStart: true, eol: tree.eol, top: true };
  const body = mergeBody(topSpec(), tree.entries, config, layout);
  // In a file of comments only, the comments are a heading: new directives go below them.
  if (tree.entries.length === 0 && tree.closing.trim() !== '') {
    return tree.closing + (/\n\s*$/.test(tree.closing) ? '' : tree.eol) + body.text;
  }
  return body.text + (body.dangling && tree.closing ? tree.eol : '') + tree.closing;
}

/**
 * The whole-file way, for what the incremental merge declines: merge over the whole document,
 * read the result back and check that it means the config (or, for a config not in normal form,
 * what its canonical text means), and write the canonical text if it ever does not. Exported for
 * the tests, which check the incremental merge against it.
 */
export function mergeWhole(
  config: Record<string, unknown>,
  tree: ConfigTree,
): { text: string; state: DocumentState } {
  const canonical = () => {
    const text = printCanonical(topSpec(), config);
    return { text, state: read(text).state };
  };
  try {
    const merged = render(tree, config);
    const back = read(merged);
    if (deepEqual(back.config, config)) return { text: merged, state: back.state };
    const fallback = canonical();
    return deepEqual(back.config, read(fallback.text).config)
      ? { text: merged, state: back.state }
      : fallback;
  } catch {
    return canonical();
  }
}

/**
 * Writes a config as text over the document of the file as it was (or as a new file without one),
 * and returns the document of the new text with it, for the next edit. Everything the operator
 * wrote by hand survives for the parts that did not change, and the cost follows the size of the
 * change: items of `config` that are the values the document remembers keep their text as it is.
 * With `changes` (field edits of existing items only, see splice.ts), only the items it names are
 * looked at; the text is the same as without it.
 */
export function serializeConfigWithDocument(
  config: Record<string, unknown>,
  previous?: ConfigDocument,
  changes?: ItemChanges,
): { text: string; document: ConfigDocument } {
  const spec = topSpec();
  if (!previous) {
    // A new file: printing it and reading it back whole costs less than reading back each item.
    const text = printCanonical(spec, config);
    return { text, document: makeDocument(read(text).state) };
  }
  const state = stateOf(previous);
  const spliced = changes && spliceTop(spec, state, config, changes);
  const splicedNext = spliced && nextInPlace(spec, spliced, state);
  if (spliced && splicedNext) {
    handOnIndex(state, splicedNext);
    handOnPages(state, splicedNext);
    return { text: spliced.text, document: makeDocument(splicedNext) };
  }
  const merge = mergeTop(spec, state, config);
  const next = merge && nextDocumentState(spec, merge, state);
  if (merge && next) {
    handOnPages(state, next);
    return { text: merge.text, document: makeDocument(next) };
  }
  const whole = mergeWhole(config, state.tree);
  return { text: whole.text, document: makeDocument(whole.state) };
}

/**
 * Writes a config as text. Without `previous`, the canonical file. With the document of the file
 * as it was, everything the operator wrote by hand survives for the parts that did not change.
 */
export function serializeConfig(config: Record<string, unknown>, previous?: ConfigDocument): string {
  if (!previous) return printCanonical(topSpec(), config);
  return serializeConfigWithDocument(config, previous).text;
}
