import type { Ann } from './codec/spec.js';
import type { ConfigTree } from './tree.js';

/**
 * The parsed file with its comments, blank lines and raw text, kept to write the next version of
 * the file around what the operator wrote. Opaque: only parseConfigText and
 * serializeConfigWithDocument make one.
 */
export interface ConfigDocument {
  readonly kind: 'sluice-config-document';
}

/**
 * What a document holds. `values[i]` is the JSON value top-level entry i was read as or written
 * from, by reference: an item of the next config that is that same value (or equal to it) keeps
 * its text without being encoded again, which is what makes the cost of an edit follow its size.
 *
 * Entries the next document shares with this one keep the positions of the text they were first
 * read from. Positions only serve error messages, and entries already read without error are never
 * read again with a different outcome; columns, which the parser's continuation rule depends on,
 * are kept exact (see next-document.ts).
 */
export interface DocumentState {
  readonly tree: ConfigTree;
  /** One per top-level entry: its merge group and key. */
  readonly anns: readonly Ann[];
  readonly values: readonly unknown[];
  /** The text the entries are spans of, in order, and where each entry's leading text starts. */
  readonly text: string;
  starts?: ArrayLike<number>;
}

/** Where each entry's leading text starts in the text; the last number is where the closing starts. */
export function startsOf(state: DocumentState): ArrayLike<number> {
  if (!state.starts) {
    const starts = new Array<number>(state.tree.entries.length + 1);
    let at = 0;
    state.tree.entries.forEach((e, i) => {
      starts[i] = at;
      at += e.leading.length + e.raw.length + e.trailing.length;
    });
    starts[state.tree.entries.length] = at;
    state.starts = starts;
  }
  return state.starts;
}

const states = new WeakMap<ConfigDocument, DocumentState>();

export function makeDocument(state: DocumentState): ConfigDocument {
  const document: ConfigDocument = Object.freeze({ kind: 'sluice-config-document' });
  states.set(document, state);
  return document;
}

export function stateOf(document: ConfigDocument): DocumentState {
  const state = states.get(document);
  if (!state) throw new TypeError('not a document returned by parseConfigText');
  return state;
}

export function treeOf(document: ConfigDocument): ConfigTree {
  return stateOf(document).tree;
}
