import type { ConfigTree } from './tree.js';

/**
 * The parsed file with its comments, blank lines and raw text, kept to write the next version of
 * the file around what the operator wrote. Opaque: only parseConfigText makes one.
 */
export interface ConfigDocument {
  readonly kind: 'sluice-config-document';
}

const trees = new WeakMap<ConfigDocument, ConfigTree>();

export function makeDocument(tree: ConfigTree): ConfigDocument {
  const document: ConfigDocument = Object.freeze({ kind: 'sluice-config-document' });
  trees.set(document, tree);
  return document;
}

export function treeOf(document: ConfigDocument): ConfigTree {
  const tree = trees.get(document);
  if (!tree) throw new TypeError('not a document returned by parseConfigText');
  return tree;
}
