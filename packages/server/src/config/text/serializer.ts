import { deepEqual } from '@sluice/api';
import { decodeBlock } from './codec/block.js';
import { topSpec } from './codec/specs.js';
import { type ConfigDocument, makeDocument, treeOf } from './document.js';
import { mergeBody } from './merge.js';
import { parseTree } from './parser.js';
import type { ConfigTree } from './tree.js';

const EMPTY: ConfigTree = { entries: [], closing: '', eol: '\n' };

/** Reads a config text into its JSON config (not validated: the store checks it against the schema). */
export function parseConfigText(text: string): { config: Record<string, unknown>; document: ConfigDocument } {
  const tree = parseTree(text);
  return { config: decodeBlock(topSpec(), tree.entries).value, document: makeDocument(tree) };
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
 * Writes a config as text. Without `previous`, the canonical file. With the document of the file
 * as it was, everything the operator wrote by hand survives for the parts that did not change.
 */
export function serializeConfig(config: Record<string, unknown>, previous?: ConfigDocument): string {
  if (!previous) return render(EMPTY, config);
  const merged = render(treeOf(previous), config);
  // The merge keeps old text wherever it judges it still means the same: check that the file as a
  // whole reads back as the config (or, for a config not in normal form, as its canonical text
  // does), and write the canonical text if it ever does not.
  const read = (text: string) => decodeBlock(topSpec(), parseTree(text).entries).value;
  try {
    const back = read(merged);
    if (deepEqual(back, config)) return merged;
    const canonical = render(EMPTY, config);
    return deepEqual(back, read(canonical)) ? merged : canonical;
  } catch {
    return render(EMPTY, config);
  }
}
